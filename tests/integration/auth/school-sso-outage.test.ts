// A school's identity provider down or hung (decision 0062's OpenID Connect sign-in): "Sign in with {school}" and the
// provider's return to the callback end within openid-client's timeout (10 s) in the log-in page's error, saying the
// provider could not be reached and naming no address; nothing is signed in; the same button works once the provider
// answers again. Saving the settings against a provider that cannot be reached is refused on the issuer; one that
// answers but names another issuer is refused saying so (decision 0144). The failure page is sent a code and the
// school's address, by which it names the school, the button's failure too.
import { createServer as createHttpServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { SESSION_COOKIE } from '../../../src-server/auth/session.ts'
import { defaultAppConfig } from '../../../src-server/kernel/config.ts'
import type { DatabaseHandle } from '../../../src-server/kernel/db.ts'
import { createCaller } from '../../../src-server/routers/_app.ts'
import { createContextInner } from '../../../src-server/trpc/context.ts'
import { createCreator } from '../../support/creator-courses.ts'
import { createTestDatabase } from '../../support/db.ts'
import { createSessionToken, type TestUser } from '../../support/factories.ts'
import { freePort } from '../../support/free-port.ts'
import { startTestServer, type TestServer } from '../../support/http.ts'
import { type LocalOidcProvider, startOidcProvider } from '../../support/oidc-provider.ts'
import { type SilentServer, startSilentServer } from '../../support/silent-server.ts'

const PUBLIC_URL = 'http://storefront.test'
const config = { ...defaultAppConfig, publicUrl: PUBLIC_URL, ssoHttpIssuers: 'loopback' as const }

let database: DatabaseHandle
let server: TestServer
let provider: LocalOidcProvider
let silent: SilentServer
let owner: TestUser
let slug: string
const db = () => database.db

beforeAll(async () => {
  database = await createTestDatabase()
  server = await startTestServer(db(), { env: { SSO_HTTP_ISSUERS: 'loopback' } })
  provider = await startOidcProvider({ redirectUris: [`${PUBLIC_URL}/auth/sso/callback`] })
  silent = await startSilentServer()
  owner = await createCreator(db(), { plan: 'enterprise' })
  const panel = await (await ownerCaller()).schoolSso.save(settings(provider.issuer))
  slug = panel.school.slug
})
afterAll(async () => {
  await server?.stop()
  await provider?.close()
  await silent?.close()
  await database?.close()
})

async function ownerCaller() {
  const { session } = await createSessionToken(db(), owner.id)
  return createCaller(createContextInner({ db: db(), user: owner, session, config }))
}

function settings(issuer: string) {
  return {
    issuer,
    clientId: provider.clientId,
    clientSecret: provider.clientSecret,
    domains: 'acme.test',
    enabled: true,
    requireForMembers: false,
  }
}

/** The provider moves (as if down or hung there): the school's saved issuer, as a later outage finds it. */
const issuerIs = (issuer: string) => db().updateTable('school_sso').set({ issuer }).execute()

/** GET without following redirects; how long it took and where it went. */
async function visit(path: string, cookie?: string) {
  const started = performance.now()
  const response = await fetch(`${server.baseUrl}${path}`, {
    redirect: 'manual',
    headers: cookie ? { cookie } : {},
    signal: AbortSignal.timeout(30_000),
  })
  return {
    ms: performance.now() - started,
    status: response.status,
    location: decodeURIComponent(response.headers.get('location') ?? ''),
    cookies: response.headers.getSetCookie(),
  }
}

/** Where a failure sends the browser: its code, the way (a school's sign-in) and the school's address, no text. */
const failedWith = (code: string) => `/auth/callback?error=${code}&via=school&school=${slug}`

describe('the school’s identity provider down or hung', () => {
  it('refused connections: the sign-in button ends at once in the log-in error; it works again once the provider answers', async () => {
    const closed = `http://127.0.0.1:${await freePort()}`
    await issuerIs(closed)
    try {
      const start = await visit(`/auth/sso/${slug}`)
      expect(start.status).toBe(302)
      expect(start.location).toEqual(failedWith('sso_unreachable'))
      expect(start.location).not.toContain('127.0.0.1')
      expect(start.ms).toBeLessThan(5_000)
    } finally {
      await issuerIs(provider.issuer)
    }
    const again = await visit(`/auth/sso/${slug}`)
    expect(again.status).toBe(302)
    expect(new URL(again.location).origin).toBe(provider.issuer)
  })

  it('a provider that accepts and never answers: the button and the callback end within the 10 s timeout, signing nobody in', async () => {
    // The flow starts while the provider answers (its cookie set), then the provider hangs before the browser returns.
    const start = await visit(`/auth/sso/${slug}`)
    const flow = start.cookies.find((line) => line.startsWith('sso_flow='))?.split(';')[0] ?? ''
    expect(flow).not.toBe('')
    const state = new URL(start.location).searchParams.get('state') ?? ''
    await issuerIs(`http://127.0.0.1:${silent.port}`)
    try {
      const callback = await visit(`/auth/sso/callback?code=abc&state=${encodeURIComponent(state)}`, flow)
      expect(callback.status).toBe(302)
      expect(callback.location).toEqual(failedWith('sso_unreachable'))
      expect(callback.location).not.toContain(String(silent.port))
      expect(callback.cookies.some((line) => line.startsWith(`${SESSION_COOKIE}=`) && !/max-age=0/i.test(line))).toBe(
        false,
      )
      expect(callback.ms).toBeLessThan(15_000)

      const button = await visit(`/auth/sso/${slug}`)
      expect(button.location).toEqual(failedWith('sso_unreachable'))
      expect(button.ms).toBeLessThan(15_000)
    } finally {
      await issuerIs(provider.issuer)
    }
  }, 45_000)

  it('saving the settings against a provider that cannot be reached is refused on the issuer, and keeps the saved ones', async () => {
    const closed = `http://127.0.0.1:${await freePort()}`
    const refused = await (await ownerCaller()).schoolSso.save(settings(closed)).then(
      () => 'saved',
      (error: Error) => error.message,
    )
    expect(refused).toBe('The issuer did not answer OpenID Connect discovery')
    expect(await db().selectFrom('school_sso').select('issuer').executeTakeFirstOrThrow()).toEqual({
      issuer: provider.issuer,
    })
  })

  it('saving against a provider whose discovery names another issuer says so, naming both', async () => {
    // It answers discovery, but as https://login.elsewhere.test (the owner typed its address another way).
    const impostor = createHttpServer((_request, response) => {
      response.writeHead(200, { 'content-type': 'application/json' })
      response.end(JSON.stringify({ issuer: 'https://login.elsewhere.test', authorization_endpoint: 'x' }))
    })
    await new Promise<void>((resolve) => impostor.listen(0, '127.0.0.1', resolve))
    const issuer = `http://127.0.0.1:${(impostor.address() as AddressInfo).port}`
    try {
      const refused = await (await ownerCaller()).schoolSso.save(settings(issuer)).then(
        () => 'saved',
        (error: Error) => error.message,
      )
      expect(refused).toBe(
        `The issuer answered OpenID Connect discovery but names itself differently: expected ${issuer}, got https://login.elsewhere.test. Enter the issuer exactly as your provider gives it.`,
      )
    } finally {
      impostor.closeAllConnections()
      await new Promise((resolve) => impostor.close(resolve))
    }
  })
})
