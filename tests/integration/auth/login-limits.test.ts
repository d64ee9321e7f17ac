// Password guessing over real HTTP: a per-account cap on the staff log-in (with a notice to the account's owner),
// a per-address cap across accounts (password spraying), and tRPC batches that can neither exceed 10 calls nor
// slip calls past the limits. argon2 verifications are counted through the real password module.
import { describe, expect, it, vi } from 'vitest'
import { verifyPassword } from '../../../src-server/auth/password.ts'
import { TOO_MANY_ATTEMPTS } from '../../../src-server/routers/admin/session.ts'
import { RATE_RULES } from '../../../src-server/security/rate-limit.ts'
import { LOGIN_LOCKED_MAIL_KIND } from '../../../src-server/team/login-notice.ts'
import { AUTH_MESSAGES } from '../../../src-shared/auth.ts'
import { ADMIN_LOGIN_FAILED } from '../../../src-shared/schemas/admin.ts'
import { TRPC_MAX_BATCH_SIZE } from '../../../src-shared/trpc-limits.ts'
import { createUser } from '../../support/factories.ts'
import { trpcPost } from '../../support/http.ts'
import { serveForThisFile } from '../../support/test-server.ts'

// The real argon2 verification, counted.
vi.mock('../../../src-server/auth/password.ts', async (importOriginal) => {
  const original = await importOriginal<typeof import('../../../src-server/auth/password.ts')>()
  return { ...original, verifyPassword: vi.fn(original.verifyPassword) }
})
const argon2Verifications = () => vi.mocked(verifyPassword).mock.calls.length

// Behind a trusted proxy, so each request can come from its own client address.
const site = serveForThisFile({ env: { TRUST_PROXY: true } })

interface TrpcAnswer {
  result?: { data: unknown }
  error?: { message: string; data: { httpStatus: number } }
}

async function call(procedure: string, input: unknown, from: string) {
  const response = await trpcPost(site.baseUrl, procedure, input, { 'x-forwarded-for': from })
  const body = (await response.json()) as TrpcAnswer
  return { status: response.status, message: body.error?.message }
}

/** One HTTP request carrying every input as a call of `procedure` (what httpBatchLink sends). */
async function batch(procedure: string, inputs: unknown[], from: string) {
  const paths = inputs.map(() => procedure).join(',')
  const body = Object.fromEntries(inputs.map((input, index) => [String(index), input]))
  const response = await trpcPost(site.baseUrl, `${paths}?batch=1`, body, { 'x-forwarded-for': from })
  return { status: response.status, body: (await response.json()) as TrpcAnswer[] | TrpcAnswer }
}

const statusesOf = (answers: TrpcAnswer[]) => answers.map((answer) => answer.error?.data.httpStatus ?? 200)

describe('staff log-in: per-account cap from any addresses', () => {
  it('refuses even the right password after 10 failures from 10 addresses, and tells the owner once', async () => {
    const owner = await createUser(site.db, { role: 'super_admin' })
    const rule = RATE_RULES.adminLoginFailuresPerAccount
    for (let i = 0; i < rule.max; i++) {
      expect(
        await call('admin.session.login', { email: owner.email, password: `guess-${i}` }, `198.51.100.${i}`),
      ).toEqual({ status: 401, message: ADMIN_LOGIN_FAILED })
    }
    const right = await call('admin.session.login', { email: owner.email, password: owner.password }, '198.51.100.200')
    expect(right).toEqual({ status: 429, message: TOO_MANY_ATTEMPTS })
    for (let i = 0; i < 5; i++) {
      await call('admin.session.login', { email: owner.email, password: `more-${i}` }, `198.51.100.${50 + i}`)
    }

    const notices = await site.db
      .selectFrom('mail_outbox')
      .select(['to_address', 'subject', 'text_body'])
      .where('kind', '=', LOGIN_LOCKED_MAIL_KIND)
      .execute()
    expect(notices).toEqual([
      {
        to_address: owner.email,
        subject: 'SkillForge admin sign-in blocked after failed attempts',
        text_body: expect.stringContaining('blocked for 15 minutes, even with the right password'),
      },
    ])
    // Other accounts, from the same addresses, are not affected.
    const editor = await createUser(site.db, { role: 'editor' })
    const other = await call('admin.session.login', { email: editor.email, password: editor.password }, '198.51.100.1')
    expect(other.status).toBe(200)
  })

  it('sends no notice for an address that is not a staff account', async () => {
    for (let i = 0; i < RATE_RULES.adminLoginFailuresPerAccount.max + 1; i++) {
      await call('admin.session.login', { email: 'nobody@example.test', password: 'x' }, `192.0.2.${i}`)
    }
    const sent = await site.db
      .selectFrom('mail_outbox')
      .select('id')
      .where('to_address', '=', 'nobody@example.test')
      .execute()
    expect(sent).toEqual([])
  })
})

describe('log-in limits do not tell who has an account', () => {
  // The same wrong passwords on a known and an unknown address, from one client address and from a new one each
  // time: the answers (401 until a cap, then 429) must match call for call, on the staff and the shop forms.
  const tries = RATE_RULES.adminLoginFailuresPerAccount.max + 3
  async function statuses(procedure: string, email: string, from: (i: number) => string) {
    const answers: number[] = []
    for (let i = 0; i < tries; i++)
      answers.push((await call(procedure, { email, password: `wrong-${i}` }, from(i))).status)
    return answers
  }

  it.each([
    ['admin.session.login', 'super_admin', 11],
    ['auth.login', 'customer', 12],
  ] as const)('%s answers a known and an unknown address alike', async (procedure, role, net) => {
    const known = await createUser(site.db, { role })
    const unknown = `nobody-${net}@example.test`
    const oneAddress = await statuses(procedure, known.email, () => `198.18.${net}.1`)
    expect(await statuses(procedure, unknown, () => `198.18.${net}.2`)).toEqual(oneAddress)
    expect(oneAddress).toContain(429)
    const known2 = await createUser(site.db, { role })
    const manyAddresses = await statuses(procedure, known2.email, (i) => `198.18.${net + 10}.${i}`)
    expect(await statuses(procedure, `other-${unknown}`, (i) => `198.18.${net + 20}.${i}`)).toEqual(manyAddresses)
  })
})

describe('password spraying from one address', () => {
  it('refuses an address that tried 50 accounts, on the shop and the staff forms alike', async () => {
    const from = '203.0.113.9'
    const rule = RATE_RULES.loginFailuresPerAddress
    const statuses: number[] = []
    for (let i = 0; i < 50; i++) {
      statuses.push(
        (await call('auth.login', { email: `victim-${i}@example.test`, password: 'Summer2026!' }, from)).status,
      )
    }
    expect(statuses).toEqual([...Array(rule.max).fill(401), ...Array(50 - rule.max).fill(429)])

    const customer = await createUser(site.db)
    expect(await call('auth.login', { email: customer.email, password: customer.password }, from)).toEqual({
      status: 429,
      message: AUTH_MESSAGES.tooManyAttempts,
    })
    const staff = await createUser(site.db, { role: 'viewer' })
    expect((await call('admin.session.login', { email: staff.email, password: staff.password }, from)).status).toBe(429)
    // Another address is not refused, and right passwords never count as failures: 25 log-ins pass.
    const users = await Promise.all(Array.from({ length: 5 }, () => createUser(site.db)))
    for (const user of users) {
      for (let i = 0; i < 5; i++) {
        const answer = await call('auth.login', { email: user.email, password: user.password }, '203.0.113.10')
        expect(answer.status).toBe(200)
      }
    }
  })
})

describe('tRPC batches', () => {
  it('refuses a batch of 200 log-ins with 400 before a single argon2 hash', async () => {
    const before = argon2Verifications()
    const inputs = Array.from({ length: 200 }, (_, i) => ({ email: `spray-${i}@example.test`, password: 'guess-1' }))
    const answer = await batch('auth.login', inputs, '203.0.113.20')
    expect(answer.status).toBe(400)
    expect(JSON.stringify(answer.body)).toContain('Batch call exceeds maximum size')
    expect(argon2Verifications() - before).toBe(0)
  })

  it(`runs a batch of ${TRPC_MAX_BATCH_SIZE}, counting every call against the limits`, async () => {
    const admin = await createUser(site.db, { role: 'admin' })
    const rule = RATE_RULES.adminLoginFailures
    const before = argon2Verifications()
    const guesses = Array.from({ length: TRPC_MAX_BATCH_SIZE }, (_, i) => ({ email: admin.email, password: `g-${i}` }))
    const answer = await batch('admin.session.login', guesses, '203.0.113.21')
    const statuses = statusesOf(answer.body as TrpcAnswer[]).sort()
    expect(statuses).toEqual([...Array(rule.max).fill(401), ...Array(TRPC_MAX_BATCH_SIZE - rule.max).fill(429)])
    // Only the calls within the limit cost a hash.
    expect(argon2Verifications() - before).toBe(rule.max)
  })
})
