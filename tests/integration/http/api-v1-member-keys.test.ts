// API keys held by a school's team members (issue 36, decision 0060) over real HTTP: a finance member holds keys for
// orders and earnings (read) only, sees and revokes only their own; an instructor or support member holds none;
// a key is cut to its holder's current role on every request and dies when they leave the team (the owner removes
// them: the key is revoked, and refused even if it were not).
import type { TRPCError } from '@trpc/server'
import { describe, expect, it } from 'vitest'
import { createMemoryLimiter } from '../../../src-server/security/rate-limit.ts'
import { createCreator } from '../../support/creator-courses.ts'
import { callerAs, createUser, type TestUser } from '../../support/factories.ts'
import { serveForThisFile } from '../../support/test-server.ts'

const site = serveForThisFile({ limiter: createMemoryLimiter() })

async function api(path: string, key: string) {
  const response = await fetch(`${site.baseUrl}/api/v1${path}`, { headers: { authorization: `Bearer ${key}` } })
  // biome-ignore lint/suspicious/noExplicitAny: the test reads whatever JSON the API answers
  return { status: response.status, body: (await response.json()) as any }
}

async function failure(promise: Promise<unknown>) {
  try {
    await promise
  } catch (error) {
    return `${(error as TRPCError).code}: ${(error as TRPCError).message}`
  }
  return 'OK'
}

/** An Enterprise school with a member of the role (added as an accepted invitation leaves them). */
async function schoolWithMember(role: 'finance' | 'instructor' | 'support') {
  const owner = await createCreator(site.db, { plan: 'enterprise' })
  await (await callerAs(site.db, owner)).apiKeys.list()
  const school = await site.db
    .selectFrom('schools')
    .select('id')
    .where('owner_id', '=', owner.id)
    .executeTakeFirstOrThrow()
  const member = await createUser(site.db)
  await site.db.insertInto('school_members').values({ school_id: school.id, user_id: member.id, role }).execute()
  return { owner, member, schoolId: school.id }
}

const asUser = (user: TestUser) => callerAs(site.db, user)

describe('keys held by school members', { timeout: 60_000 }, () => {
  it('a finance member holds keys for orders and earnings only, and sees and revokes only their own', async () => {
    const { owner, member, schoolId } = await schoolWithMember('finance')
    const finance = await asUser(member)
    // Beyond the role: refused, naming the scope; nothing stored.
    expect(
      await failure(
        finance.apiKeys.create({
          schoolId,
          name: 'Too much',
          scopes: ['enrolments:write'],
          expiresInDays: 30,
          password: member.password,
        }),
      ),
    ).toBe('FORBIDDEN: Your role in this school (finance) cannot give a key the scope enrolments:write')
    const made = await finance.apiKeys.create({
      schoolId,
      name: 'Accounting sync',
      scopes: ['orders:read', 'earnings:read'],
      expiresInDays: 30,
      password: member.password,
    })
    expect((await api('/orders', made.key)).status).toBe(200)
    expect((await api('/earnings', made.key)).status).toBe(200)

    const ownersKey = await (await asUser(owner)).apiKeys.create({
      name: 'Owner’s',
      scopes: ['courses:read'],
      expiresInDays: 30,
      password: owner.password,
    })
    const theirs = await finance.apiKeys.list({ schoolId })
    expect(theirs.allowedScopes).toEqual(['orders:read', 'earnings:read'])
    expect(theirs.keys.map((key) => key.id)).toEqual([made.id])
    // The owner sees every key of the school; the member cannot revoke the owner's.
    expect((await (await asUser(owner)).apiKeys.list()).keys.map((key) => key.id).sort()).toEqual(
      [made.id, ownersKey.id].sort(),
    )
    expect(await failure(finance.apiKeys.revoke({ schoolId, keyId: ownersKey.id }))).toBe(
      'NOT_FOUND: Key not found or revoked already',
    )
    // Without naming the school a member has no school of their own.
    expect(await failure(finance.apiKeys.list())).toMatch(/^FORBIDDEN/)
    expect(await finance.apiKeys.revoke({ schoolId, keyId: made.id })).toEqual({ revoked: true })
    expect((await api('/orders', made.key)).body.error.code).toBe('key_revoked')
  })

  it('instructors, support members and strangers hold no keys', async () => {
    for (const role of ['instructor', 'support'] as const) {
      const { member, schoolId } = await schoolWithMember(role)
      expect(
        await failure(
          (await asUser(member)).apiKeys.create({
            schoolId,
            name: 'x',
            scopes: ['courses:read'],
            expiresInDays: 30,
            password: member.password,
          }),
        ),
      ).toBe(`FORBIDDEN: Your role in this school (${role}) does not allow API keys`)
    }
    const { schoolId } = await schoolWithMember('finance')
    const stranger = await createUser(site.db)
    expect(
      await failure(
        (await asUser(stranger)).apiKeys.create({
          schoolId,
          name: 'x',
          scopes: ['orders:read'],
          expiresInDays: 30,
          password: stranger.password,
        }),
      ),
    ).toBe('NOT_FOUND: School not found')
  })

  it('a key follows its holder’s role, and dies when they leave the team', async () => {
    const { owner, member, schoolId } = await schoolWithMember('finance')
    const made = await (await asUser(member)).apiKeys.create({
      schoolId,
      name: 'Ledger export',
      scopes: ['orders:read', 'earnings:read'],
      expiresInDays: 30,
      password: member.password,
    })
    expect((await api('/earnings', made.key)).status).toBe(200)

    // Moved to support: the role holds no keys, so the key is refused as its holder's.
    await site.db.updateTable('school_members').set({ role: 'support' }).where('user_id', '=', member.id).execute()
    const moved = await api('/earnings', made.key)
    expect(moved.status).toBe(401)
    expect(moved.body.error.code).toBe('holder_left')
    // Still on the team: the refusal says the role, not that they left.
    expect(moved.body.error.message).toBe(
      'The person who holds this API key is now in the school’s support role, which holds no API keys',
    )
    await site.db.updateTable('school_members').set({ role: 'finance' }).where('user_id', '=', member.id).execute()
    expect((await api('/earnings', made.key)).status).toBe(200)

    // The owner removes them: their key is revoked with it.
    await (await asUser(owner)).schools.remove({ userId: member.id })
    const gone = await api('/earnings', made.key)
    expect(gone.status).toBe(401)
    expect(gone.body.error.code).toBe('key_revoked')
    const row = await site.db
      .selectFrom('api_keys')
      .select('revoked_at')
      .where('id', '=', made.id)
      .executeTakeFirstOrThrow()
    expect(row.revoked_at).toBeInstanceOf(Date)
    // Even a key left unrevoked (say, removed straight from the table) dies with its holder's place.
    const again = await schoolWithMember('finance')
    const left = await (await asUser(again.member)).apiKeys.create({
      schoolId: again.schoolId,
      name: 'x',
      scopes: ['orders:read'],
      expiresInDays: 30,
      password: again.member.password,
    })
    await site.db.deleteFrom('school_members').where('user_id', '=', again.member.id).execute()
    expect((await api('/orders', left.key)).body.error.code).toBe('holder_left')
  })
})
