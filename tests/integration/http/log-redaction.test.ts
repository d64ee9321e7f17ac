// No secret in the server's log (issue 27): the access line of a mailed link or of a tRPC GET keeps the URL with its
// secrets "[redacted]", a rejected log-in (zod error) logs neither the password nor the body, and a logged error
// loses the secrets of the links in its message. The audit log stores no secret either.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { listAudit, record } from '../../../src-server/audit/repository.ts'
import type { DatabaseHandle } from '../../../src-server/kernel/db.ts'
import { redactingLogOptions } from '../../../src-server/kernel/log.ts'
import { INVITATION_INVALID } from '../../../src-server/team/invitations.ts'
import { loginInput } from '../../../src-shared/schemas/auth.ts'
import { createTestDatabase } from '../../support/db.ts'
import { createUser } from '../../support/factories.ts'
import { startTestServer, type TestServer, trpcPost } from '../../support/http.ts'
import { captureJsonLogs } from '../../support/json-logs.ts'

const TOKEN = 'tok3n-that-must-not-be-logged'
const PASSWORD = 'Pa55word-that-must-not-be-logged'

let database: DatabaseHandle
let server: TestServer
const { lines, stream } = captureJsonLogs<{ msg: string; url?: string }>()

beforeAll(async () => {
  database = await createTestDatabase()
  server = await startTestServer(database.db, { clientShell: true, logStream: stream })
})
afterAll(async () => {
  await server.stop()
  await database.close()
})

/** The access line of the last request to `path` (written once the answer has gone), once no line holds a secret. */
async function accessLine(path: string) {
  await expect.poll(() => lines.some((line) => line.msg === 'request' && line.url?.startsWith(path))).toBe(true)
  const log = lines.map((line) => JSON.stringify(line)).join('\n')
  expect(log).not.toContain(TOKEN)
  expect(log).not.toContain(PASSWORD)
  return lines.findLast((line) => line.msg === 'request' && line.url?.startsWith(path))!
}

describe('the access log', () => {
  it('redacts the token of a mailed link', async () => {
    await fetch(`${server.baseUrl}/verify-email?token=${TOKEN}&from=mail`)
    expect((await accessLine('/verify-email')).url).toBe('/verify-email?token=[redacted]&from=mail')
  })

  it("redacts a tRPC GET input's token and keeps the rest of it readable", async () => {
    const input = encodeURIComponent(JSON.stringify({ token: TOKEN }))
    await fetch(`${server.baseUrl}/trpc/admin.team.invitation?input=${input}`)
    expect((await accessLine('/trpc/admin.team.invitation')).url).toBe(
      '/trpc/admin.team.invitation?input={"token":"[redacted]"}',
    )
  })

  it('answers a query that carries a token from a POST body, as the client sends it, and logs no input', async () => {
    // httpBatchLink with methodOverride 'POST' (src-client/lib/trpc.ts carriesPrivateInput): the batch's inputs as the body.
    const response = await trpcPost(server.baseUrl, 'admin.team.invitation?batch=1', { 0: { token: TOKEN } })
    expect(response.status).toBe(404) // the invitation's own refusal, not 405 (a query refused as a POST)
    expect(await response.text()).toContain(INVITATION_INVALID)
    expect((await accessLine('/trpc/admin.team.invitation')).url).toBe('/trpc/admin.team.invitation?batch=1')
  })

  it('logs no password of a rejected log-in, and the zod error does not carry it', async () => {
    const bad = { email: 'not-an-address', password: `${PASSWORD}${'x'.repeat(200)}` }
    const response = await trpcPost(server.baseUrl, 'auth.login', bad)
    expect(response.status).toBe(400)
    expect(await response.text()).not.toContain(PASSWORD)
    expect((await accessLine('/trpc/auth.login')).url).toBe('/trpc/auth.login')
    // zod 4 issues name the rule, not the value: nothing a log of the error could leak.
    const error = loginInput.safeParse({ ...bad, password: 12345678 }).error
    expect(error?.message).toBeTruthy()
    expect(error?.message).not.toContain('12345678')
    expect(loginInput.safeParse(bad).error?.message).not.toContain(PASSWORD)
  })
})

describe('the error serializer', () => {
  it("redacts the links in an error's message, stack and fields, and keeps its code", () => {
    const error = Object.assign(new Error(`fetch failed for https://x.test/reset-password?token=${TOKEN}`), {
      code: 'ECONNREFUSED',
      input: `/admin/accept-invite?token=${TOKEN}`,
      password: PASSWORD,
    })
    const logged = redactingLogOptions.serializers.err(error)
    expect(JSON.stringify(logged)).not.toContain(TOKEN)
    expect(JSON.stringify(logged)).not.toContain(PASSWORD)
    expect(logged).toMatchObject({
      code: 'ECONNREFUSED',
      message: 'fetch failed for https://x.test/reset-password?token=[redacted]',
      input: '/admin/accept-invite?token=[redacted]',
      password: '[redacted]',
    })
  })
})

describe('the audit log', () => {
  it('stores no secret-named field and no token of a link, whoever passes one', async () => {
    const actor = await createUser(database.db, { role: 'admin' })
    await record(database.db, actor, 'team.invite', {
      type: 'invitation',
      id: actor.id,
      after: { email: 'new@staff.test', password: PASSWORD, link: `http://x.test/admin/accept-invite?token=${TOKEN}` },
    })
    const [entry] = (await listAudit(database.db, 1, 1)).items
    expect(JSON.stringify(entry)).not.toContain(TOKEN)
    expect(entry?.after).toEqual({
      email: 'new@staff.test',
      password: '[redacted]',
      link: 'http://x.test/admin/accept-invite?token=[redacted]',
    })
  })
})
