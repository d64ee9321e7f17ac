// A school's single sign-on through a real OpenID provider (oidc-provider on 127.0.0.1, decision 0062): the whole
// authorization-code flow over HTTP (the app's start and callback routes, the provider's log-in page), the refusals
// (an e-mail domain the school does not allow, an address the provider does not call verified), linking an existing
// account by its verified e-mail only, the owner-only and plan-bound settings that never show the secret, and a
// school that requires SSO refusing its members' passwords, an issuer on a private address refused (SSRF), and an
// existing account the school may not claim linked on its owner's consent only (signed in, with a fresh proof), and
// each allowed e-mail domain's own DNS proof (a TXT record at _skillforge-sso.<domain>, checked through a local DNS
// server): only the exact domain's proof lets an existing account be linked, never a verified name under it, and only
// it lets the provider make a new account (one that lapses refuses new accounts; identities linked before still sign in).
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { SESSION_COOKIE } from '../../../src-server/auth/session.ts'
import { DNS_PROOF_LAPSE_GRACE_MS } from '../../../src-server/creators/dns-proofs.ts'
import { recordSsoDomainCheck } from '../../../src-server/creators/sso-domain-proofs.ts'
import { defaultAppConfig } from '../../../src-server/kernel/config.ts'
import type { DatabaseHandle } from '../../../src-server/kernel/db.ts'
import { guardedFetch, PrivateTargetError } from '../../../src-server/kernel/private-targets.ts'
import { createCaller } from '../../../src-server/routers/_app.ts'
import { createContextInner } from '../../../src-server/trpc/context.ts'
import { createCreator, lapsePlan, restorePlan } from '../../support/creator-courses.ts'
import { createTestDatabase } from '../../support/db.ts'
import { type LocalDnsServer, startDnsServer } from '../../support/dns-server.ts'
import { callerAs, createSessionToken, createUser, type TestUser } from '../../support/factories.ts'
import { setCookieFor, startTestServer, type TestServer, trpcPost } from '../../support/http.ts'
import { captureJsonLogs } from '../../support/json-logs.ts'
import { type LocalOidcProvider, startOidcProvider } from '../../support/oidc-provider.ts'

const PUBLIC_URL = 'http://storefront.test'
let dns: LocalDnsServer
const config = {
  ...defaultAppConfig,
  publicUrl: PUBLIC_URL,
  ssoHttpIssuers: 'loopback' as const,
  /** The local DNS server (started below), as the server's DNS_SERVERS is. */
  txtLookup: (name: string) => dns.lookup(name),
}
/** The school's own domain (decision 0063), where its learners may sign in too. */
const SCHOOL_HOST = 'learn.acme-labs.test'

/** The server's log (info and up): a failed sign-in is logged with the school and why. */
const logs = captureJsonLogs<{
  level: number
  msg: string
  schoolId?: string
  reason?: string
  providerError?: string
}>()
let database: DatabaseHandle
let server: TestServer
let provider: LocalOidcProvider
let owner: TestUser
let slug: string
const db = () => database.db

async function ownerCaller(user: TestUser) {
  const { session } = await createSessionToken(db(), user.id)
  return createCaller(createContextInner({ db: db(), user, session, config }))
}

function settings(
  overrides: Partial<{ clientSecret: string; requireForMembers: boolean; domains: string; enabled: boolean }> = {},
) {
  return {
    issuer: provider.issuer,
    clientId: provider.clientId,
    clientSecret: provider.clientSecret,
    domains: 'acme.test, @Acme-Labs.test',
    enabled: true,
    requireForMembers: false,
    ...overrides,
  }
}

/** A browser's cookie jar for one site. */
function jar() {
  const cookies = new Map<string, string>()
  return {
    take(response: Response) {
      for (const line of response.headers.getSetCookie()) {
        const [pair = ''] = line.split(';')
        const equals = pair.indexOf('=')
        const value = pair.slice(equals + 1)
        if (value && !/max-age=0|expires=thu, 01 jan 1970/i.test(line)) cookies.set(pair.slice(0, equals), value)
        else cookies.delete(pair.slice(0, equals))
      }
    },
    header: () => [...cookies].map(([name, value]) => `${name}=${value}`).join('; '),
  }
}

/**
 * A GET as the browser sends it on `host` (a school's own domain; none: the server's own address), not following
 * redirects. fetch cannot set Host, so a named host goes through the server's inject, answered as a Response.
 */
async function getOn(host: string | undefined, path: string, headers: Record<string, string> = {}) {
  if (!host) return fetch(`${server.baseUrl}${path}`, { redirect: 'manual', headers })
  const answer = await server.server.app.inject({ method: 'GET', url: path, headers: { ...headers, host } })
  const answerHeaders = new Headers()
  for (const [name, value] of Object.entries(answer.headers)) {
    for (const one of Array.isArray(value) ? value : [value])
      if (one !== undefined) answerHeaders.append(name, String(one))
  }
  return new Response(answer.body, { status: answer.statusCode, headers: answerHeaders })
}

/**
 * Clicks "Sign in with {school}", logs in at the provider as `login` and follows the redirects back to the app's
 * callback; returns where the app sent the browser and the session cookie it set, if any.
 */
async function signInWithSso(login: string, signedIn?: { token: string }, host?: string) {
  const app = jar()
  const idp = jar()
  const signedInCookie = signedIn ? `${SESSION_COOKIE}=${signedIn.token}; ` : ''
  // The site the browser is on: the platform's (PUBLIC_URL) or a school's own domain, named by the Host header.
  const site = host ? `http://${host}` : PUBLIC_URL
  const start = await getOn(host, `/auth/sso/${slug}?redirect=/account`)
  expect(start.status).toBe(302)
  app.take(start)
  let url = new URL(start.headers.get('location') ?? '')
  expect(url.origin).toBe(provider.issuer)
  expect(url.searchParams.get('code_challenge_method')).toBe('S256')
  expect(url.searchParams.get('redirect_uri')).toBe(`${site}/auth/sso/callback`)
  let init: RequestInit = {}
  for (let step = 0; url.origin === provider.issuer; step++) {
    if (step > 8) throw new Error('the provider kept redirecting')
    const response = await fetch(url, {
      ...init,
      redirect: 'manual',
      headers: { ...init.headers, cookie: idp.header() },
    })
    idp.take(response)
    if (response.status >= 300 && response.status < 400) {
      url = new URL(response.headers.get('location') ?? '', url)
      init = {}
      continue
    }
    // The provider's log-in page: any password.
    const action = /action="([^"]+)"/.exec(await response.text())?.[1]
    if (!action) throw new Error(`no log-in form at ${url.pathname} (${response.status})`)
    url = new URL(action.replaceAll('&amp;', '&'), url)
    init = {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ prompt: 'login', login, password: 'anything' }).toString(),
    }
  }
  expect(url.origin + url.pathname).toBe(`${site}/auth/sso/callback`)
  const callback = await getOn(host, `${url.pathname}${url.search}`, { cookie: signedInCookie + app.header() })
  expect(callback.status).toBe(302)
  const session = setCookieFor(callback, SESSION_COOKIE)
  return {
    location: decodeURIComponent(callback.headers.get('location') ?? ''),
    session: session && !/max-age=0/i.test(session) ? session.split(';')[0] : undefined,
  }
}

async function me(sessionCookie: string, host?: string) {
  const response = await getOn(host, '/trpc/auth.me', { cookie: sessionCookie })
  return ((await response.json()) as { result: { data: { id: string; email: string } | null } }).result.data
}

beforeAll(async () => {
  database = await createTestDatabase()
  dns = await startDnsServer()
  server = await startTestServer(db(), {
    env: { SSO_HTTP_ISSUERS: 'loopback', DNS_SERVERS: `127.0.0.1:${dns.port}` },
    logStream: logs.stream,
  })
  provider = await startOidcProvider({
    redirectUris: [`${PUBLIC_URL}/auth/sso/callback`, `http://${SCHOOL_HOST}/auth/sso/callback`],
    accounts: {
      ada: { email: 'ada@acme.test', emailVerified: true, givenName: 'Ada', familyName: 'Lovelace' },
      bob: { email: 'Bob@Acme-Labs.test', emailVerified: true },
      outsider: { email: 'out@elsewhere.test', emailVerified: true },
      unproven: { email: 'carol@acme.test', emailVerified: false },
      member: { email: 'member@acme.test', emailVerified: true },
      dana: { email: 'dana@acme.test', emailVerified: true },
      finn: { email: 'finn@acme.test', emailVerified: true },
      gail: { email: 'gail@acme-labs.test', emailVerified: true },
      nell: { email: 'nell@acme.test', emailVerified: true },
      olga: { email: 'olga@acme.test', emailVerified: true },
      quinn: { email: 'quinn@acme.test', emailVerified: true },
      zoe: { email: 'zoe@acme.test', emailVerified: true },
    },
  })
  owner = await createCreator(db(), { plan: 'enterprise' })
  const panel = await (await ownerCaller(owner)).schoolSso.save(settings())
  slug = panel.school.slug
})
afterAll(async () => {
  await server?.stop()
  await provider?.close()
  await dns?.close()
  await database?.close()
})

/**
 * Tests run in a shuffled order: each one that signs in an existing account starts from a school that has proven no
 * e-mail domain (and publishes no record), none of them lapsed either; each one that makes a new account proves its
 * domain first.
 */
async function unproveEmailDomains() {
  const school = await db().selectFrom('schools').select('id').where('slug', '=', slug).executeTakeFirstOrThrow()
  await db()
    .updateTable('school_sso_domain_proofs')
    .set({ verified_at: null, checked_at: null, last_outcome: null, failing_since: null, lapsed_at: null })
    .where('school_id', '=', school.id)
    .execute()
  dns.records.clear()
  dns.failing.clear()
}

/**
 * Publishes the school's TXT record for an allowed e-mail domain (its own token, or `value`) and presses "Check" as
 * the owner; returns the check's answer.
 */
async function proveEmailDomain(domain: string, value?: string) {
  const caller = await ownerCaller(owner)
  const proof = (await caller.schoolSso.domainProofs()).find((row) => row.domain === domain)
  if (!proof) throw new Error(`${domain} is not an allowed domain`)
  dns.records.set(proof.recordName, value ?? proof.recordValue)
  return caller.schoolSso.checkDomain({ domain })
}

describe('the school’s SSO settings', () => {
  it('are the owner’s, on a plan with SSO, and never show the client secret', async () => {
    const panel = await (await ownerCaller(owner)).schoolSso.mine()
    expect(panel.settings).toMatchObject({ issuer: provider.issuer, domains: ['acme.test', 'acme-labs.test'] })
    expect(panel.settings?.hasClientSecret).toBe(true)
    expect(JSON.stringify(panel)).not.toContain(provider.clientSecret)
    const row = await db().selectFrom('school_sso').select('client_secret_sealed').executeTakeFirstOrThrow()
    expect(row.client_secret_sealed).not.toContain(provider.clientSecret)
    // Saving without a secret keeps the stored one.
    await (await ownerCaller(owner)).schoolSso.save(settings({ clientSecret: '' }))
    expect(
      (await db().selectFrom('school_sso').select('client_secret_sealed').executeTakeFirstOrThrow())
        .client_secret_sealed,
    ).toBe(row.client_secret_sealed)

    const pro = await createCreator(db(), { plan: 'pro' })
    await expect((await ownerCaller(pro)).schoolSso.save(settings({ domains: 'pro.test' }))).rejects.toThrow(
      /Single sign-on comes with the Enterprise plan/,
    )
    const learner = await createUser(db())
    await expect((await ownerCaller(learner)).schoolSso.mine()).rejects.toThrow(/Only approved creators/)
    // One school per e-mail domain counts proofs, not listings (decision 0091): a domain the owner only listed is
    // not held, one the owner proved is refused to another school.
    await unproveEmailDomains()
    const other = await createCreator(db(), { plan: 'enterprise' })
    await (await ownerCaller(other)).schoolSso.save(settings({ domains: 'acme-labs.test' }))
    expect((await proveEmailDomain('acme-labs.test')).status).toBe('verified')
    await expect((await ownerCaller(other)).schoolSso.save(settings({ domains: 'acme-labs.test' }))).rejects.toThrow(
      /Another school has proven acme-labs\.test by DNS/,
    )
    await expect((await ownerCaller(other)).schoolSso.save(settings({ domains: 'gmail.com' }))).rejects.toThrow(
      /public mail service/,
    )
  })
})

describe('the DNS proof of each allowed e-mail domain', () => {
  it('gives each listed domain its own TXT record, listed and checked by the school’s owner only', async () => {
    await unproveEmailDomains()
    const caller = await ownerCaller(owner)
    const proofs = await caller.schoolSso.domainProofs()
    expect(proofs.map((row) => [row.domain, row.recordName, row.status])).toEqual([
      ['acme-labs.test', '_skillforge-sso.acme-labs.test', 'unchecked'],
      ['acme.test', '_skillforge-sso.acme.test', 'unchecked'],
    ])
    const tokenOf = (rows: typeof proofs, domain: string) => rows.find((row) => row.domain === domain)?.recordValue

    // Saving keeps a listed domain's token; a domain taken off loses its proof and, listed again, gets a new one.
    await caller.schoolSso.save(settings({ clientSecret: '', domains: 'acme.test' }))
    const fewer = await caller.schoolSso.domainProofs()
    expect(fewer.map((row) => row.domain)).toEqual(['acme.test'])
    expect(tokenOf(fewer, 'acme.test')).toBe(tokenOf(proofs, 'acme.test'))
    await caller.schoolSso.save(settings({ clientSecret: '' }))
    const again = await caller.schoolSso.domainProofs()
    expect(tokenOf(again, 'acme-labs.test')).not.toBe(tokenOf(proofs, 'acme-labs.test'))

    // Zod at the edge; only a domain the school lists; another creator checks their own school's only.
    await expect(caller.schoolSso.checkDomain({ domain: 'not a domain' })).rejects.toMatchObject({
      code: 'BAD_REQUEST',
    })
    await expect(caller.schoolSso.checkDomain({ domain: 'elsewhere.test' })).rejects.toThrow(
      'elsewhere.test is not one of your allowed e-mail domains',
    )
    const other = await createCreator(db(), { plan: 'enterprise' })
    const asOther = await ownerCaller(other)
    expect(await asOther.schoolSso.domainProofs()).toEqual([])
    dns.records.set('_skillforge-sso.acme.test', tokenOf(again, 'acme.test') ?? '')
    await expect(asOther.schoolSso.checkDomain({ domain: 'acme.test' })).rejects.toMatchObject({ code: 'NOT_FOUND' })
    const pro = await createCreator(db(), { plan: 'pro' })
    await expect((await ownerCaller(pro)).schoolSso.checkDomain({ domain: 'acme.test' })).rejects.toThrow(
      /Single sign-on comes with the Enterprise plan/,
    )
    const learner = await createUser(db())
    await expect((await ownerCaller(learner)).schoolSso.domainProofs()).rejects.toThrow(/Only approved creators/)
    await expect((await ownerCaller(learner)).schoolSso.checkDomain({ domain: 'acme.test' })).rejects.toThrow(
      /Only approved creators/,
    )
    const visitor = createCaller(createContextInner({ db: db(), user: null, session: null, config }))
    await expect(visitor.schoolSso.checkDomain({ domain: 'acme.test' })).rejects.toMatchObject({
      code: 'UNAUTHORIZED',
    })
    dns.records.delete('_skillforge-sso.acme.test')
    // None of that verified anything.
    expect((await caller.schoolSso.domainProofs()).map((row) => row.status)).toEqual(['unchecked', 'unchecked'])
  })
})

describe('signing in through the school’s provider', () => {
  it('creates a verified account on first sign-in, starts a session, and finds the same account again', async () => {
    expect(await proveEmailDomain('acme.test')).toMatchObject({ status: 'verified' })
    const first = await signInWithSso('ada')
    expect(first.location).toBe('/auth/callback?redirect=/account')
    expect(first.session).toBeDefined()
    const user = await me(first.session ?? '')
    expect(user?.email).toBe('ada@acme.test')
    const row = await db()
      .selectFrom('users')
      .select(['email_verified', 'first_name', 'password_hash'])
      .where('id', '=', user?.id ?? '')
      .executeTakeFirstOrThrow()
    expect(row).toEqual({ email_verified: true, first_name: 'Ada', password_hash: null })
    const again = await signInWithSso('ada')
    expect((await me(again.session ?? ''))?.id).toBe(user?.id)
  })

  it('sends a suspended account back with the suspended code and no session (decision 0160)', async () => {
    expect(await proveEmailDomain('acme.test')).toMatchObject({ status: 'verified' })
    const first = await signInWithSso('zoe')
    const user = await me(first.session ?? '')
    const admins = await callerAs(db(), await createUser(db(), { role: 'admin' }))
    await admins.admin.customers.suspend({ customerId: user?.id ?? '', reason: 'Abusive messages to instructors.' })
    expect(await me(first.session ?? '')).toBeNull()
    const refused = await signInWithSso('zoe')
    expect(refused.location).toBe(`/auth/callback?error=suspended&via=school&school=${slug}`)
    expect(refused.session).toBeUndefined()
  })

  it('links an existing account only once the school has proven its exact e-mail domain by a TXT record', async () => {
    await unproveEmailDomains()
    const bob = await createUser(db(), { email: 'bob@acme-labs.test' })
    const links = () => db().selectFrom('school_sso_links').select('user_id').where('subject', '=', 'bob').execute()
    const refusedAndUntouched = async () => {
      const refused = await signInWithSso('bob')
      expect(refused.location).toContain('error=sso_existing_account')
      expect(refused.session).toBeUndefined()
      expect(await links()).toEqual([])
      const kept = await db()
        .selectFrom('users')
        .select('password_hash')
        .where('id', '=', bob.id)
        .executeTakeFirstOrThrow()
      expect(kept.password_hash).not.toBeNull()
    }
    // The school's provider alone cannot claim an existing account: refused, nothing linked, the password kept.
    await refusedAndUntouched()

    // A verified custom domain under acme-labs.test (learn.acme-labs.test) proves nothing about acme-labs.test's
    // mailboxes: that name may be a sub-zone delegated to whoever runs the school. It used to count.
    const school = await db().selectFrom('schools').select('id').where('slug', '=', slug).executeTakeFirstOrThrow()
    await db().deleteFrom('school_domains').where('school_id', '=', school.id).execute()
    await db()
      .insertInto('school_domains')
      .values({ school_id: school.id, hostname: SCHOOL_HOST, verification_token: 'proof', verified_at: new Date() })
      .execute()
    // The sub-zone's runner can also publish a custom-domain record there: still nothing for the parent.
    dns.records.set(`_skillforge-verify.${SCHOOL_HOST}`, 'proof')
    await refusedAndUntouched()

    // The TXT record to publish is the domain's own: not yet published, then a wrong value, then a DNS failure.
    const proofs = await (await ownerCaller(owner)).schoolSso.domainProofs()
    const proof = proofs.find((row) => row.domain === 'acme-labs.test')
    expect(proof).toMatchObject({ recordName: '_skillforge-sso.acme-labs.test', status: 'unchecked' })
    expect(proof?.recordValue).toMatch(/^sf-/)
    expect(proof?.recordValue).not.toBe(proofs.find((row) => row.domain === 'acme.test')?.recordValue)
    const check = () => ownerCaller(owner).then((caller) => caller.schoolSso.checkDomain({ domain: 'acme-labs.test' }))
    expect(await check()).toMatchObject({ status: 'missing', message: expect.stringContaining('no TXT record') })
    // A sub-zone's record (its runner's token) is not the parent's.
    dns.records.set('_skillforge-sso.learn.acme-labs.test', proof?.recordValue ?? '')
    expect(await check()).toMatchObject({ status: 'missing' })
    expect(await proveEmailDomain('acme-labs.test', 'sf-not-the-token')).toMatchObject({
      status: 'mismatch',
      message: expect.stringContaining('none holds this value'),
    })
    await refusedAndUntouched()
    dns.failing.add('_skillforge-sso.acme-labs.test')
    expect(await check()).toMatchObject({ status: 'failed', message: expect.stringContaining('Check failed') })
    dns.failing.delete('_skillforge-sso.acme-labs.test')
    await refusedAndUntouched()

    // The exact domain's TXT record holds its token: verified, and bob's account is linked on his next sign-in.
    expect(await proveEmailDomain('acme-labs.test')).toMatchObject({ domain: 'acme-labs.test', status: 'verified' })
    const result = await signInWithSso('bob')
    expect((await me(result.session ?? ''))?.id).toBe(bob.id)
    expect(await links()).toEqual([{ user_id: bob.id }])
    // acme.test is a domain of its own: not proven by acme-labs.test's record.
    expect(
      (await (await ownerCaller(owner)).schoolSso.domainProofs()).find((row) => row.domain === 'acme.test')?.status,
    ).toBe('unchecked')
  })

  it('refuses an address the provider does not call verified, linking nothing', async () => {
    const carol = await createUser(db(), { email: 'carol@acme.test' })
    const result = await signInWithSso('unproven')
    expect(result.location).toContain('error=email_unverified')
    expect(result.session).toBeUndefined()
    const links = await db().selectFrom('school_sso_links').select('user_id').where('user_id', '=', carol.id).execute()
    expect(links).toEqual([])
  })

  it('refuses an e-mail domain the school does not allow, creating nothing', async () => {
    const result = await signInWithSso('outsider')
    expect(result.location).toContain('error=sso_domain_not_allowed')
    expect(result.session).toBeUndefined()
    const users = await db().selectFrom('users').select('id').where('email', '=', 'out@elsewhere.test').execute()
    expect(users).toEqual([])
  })

  it('refuses a callback whose state does not match the browser’s flow', async () => {
    const start = await fetch(`${server.baseUrl}/auth/sso/${slug}`, { redirect: 'manual' })
    const cookie = (setCookieFor(start, 'sso_flow') ?? '').split(';')[0] ?? ''
    const response = await fetch(`${server.baseUrl}/auth/sso/callback?code=forged&state=forged`, {
      redirect: 'manual',
      headers: { cookie },
    })
    expect(decodeURIComponent(response.headers.get('location') ?? '')).toContain('error=expired')
    expect(setCookieFor(response, SESSION_COOKIE)).toBeUndefined()
  })
})

describe('a provider set up wrongly', () => {
  it('saves a wrong client secret, and each failed sign-in is logged with the school and the provider’s error, never the secret', async () => {
    const wrong = 'not-the-client-secret-7f3a9c'
    await (await ownerCaller(owner)).schoolSso.save(settings({ clientSecret: wrong }))
    try {
      const from = logs.lines.length
      const result = await signInWithSso('ada')
      // The learner's page gets a code (its own words); the owner's clue is in the log.
      expect(result.location).toBe(`/auth/callback?error=sso_not_confirmed&via=school&school=${slug}`)
      expect(result.session).toBeUndefined()
      const school = await db().selectFrom('schools').select('id').where('slug', '=', slug).executeTakeFirstOrThrow()
      expect(logs.lines.slice(from).filter((line) => line.msg === 'SSO sign-in failed')).toEqual([
        expect.objectContaining({
          level: 40,
          schoolId: school.id,
          reason: 'the identity provider did not confirm the sign-in',
          providerError: 'invalid_client',
        }),
      ])
      expect(JSON.stringify(logs.lines)).not.toContain(wrong)
    } finally {
      await (await ownerCaller(owner)).schoolSso.save(settings())
    }
  })
})

describe('a provider that refuses the authorisation', () => {
  it('is logged with the school and the provider’s error code, and only a code of it: the page gets “cancelled”', async () => {
    const school = await db().selectFrom('schools').select('id').where('slug', '=', slug).executeTakeFirstOrThrow()
    const returned = async (error: string) => {
      const start = await fetch(`${server.baseUrl}/auth/sso/${slug}`, { redirect: 'manual' })
      const cookie = (setCookieFor(start, 'sso_flow') ?? '').split(';')[0] ?? ''
      const state = new URL(start.headers.get('location') ?? '').searchParams.get('state') ?? ''
      const from = logs.lines.length
      const response = await fetch(
        `${server.baseUrl}/auth/sso/callback?error=${encodeURIComponent(error)}&state=${encodeURIComponent(state)}`,
        { redirect: 'manual', headers: { cookie } },
      )
      expect(response.headers.get('location')).toBe(`/auth/callback?error=cancelled&via=school&school=${slug}`)
      return logs.lines.slice(from).filter((line) => line.msg === 'SSO sign-in failed')
    }
    // unauthorized_client: the client is set up wrongly at the provider, the owner's clue.
    expect(await returned('unauthorized_client')).toEqual([
      expect.objectContaining({ level: 40, schoolId: school.id, providerError: 'unauthorized_client' }),
    ])
    // Any other text in the address is not written to the log.
    const planted = await returned('call +1 555 0100 now')
    expect(planted).toEqual([expect.objectContaining({ schoolId: school.id, providerError: 'unrecognised' })])
    expect(JSON.stringify(planted)).not.toContain('555 0100')
  })
})

describe('removing the school’s single sign-on', () => {
  it('deletes the settings, the secret, the proofs and the links; frees its held members and its domain; ends no session', async () => {
    const other = await createCreator(db(), { plan: 'enterprise' })
    const caller = await ownerCaller(other)
    const domain = 'remove-me.test'
    await caller.schoolSso.save(settings({ domains: domain, requireForMembers: true }))
    const school = await db()
      .selectFrom('schools')
      .select('id')
      .where('owner_id', '=', other.id)
      .executeTakeFirstOrThrow()
    const publish = async (by: typeof caller) => {
      const proof = (await by.schoolSso.domainProofs()).find((row) => row.domain === domain)
      dns.records.set(proof?.recordName ?? '', proof?.recordValue ?? '')
      return (await by.schoolSso.checkDomain({ domain })).status
    }
    expect(await publish(caller)).toBe('verified')
    const rita = await createUser(db(), { email: `rita@${domain}` })
    await db()
      .insertInto('school_members')
      .values({ school_id: school.id, user_id: rita.id, role: 'support' })
      .execute()
    await db()
      .insertInto('school_sso_links')
      .values({ school_id: school.id, issuer: provider.issuer, subject: 'rita', user_id: rita.id })
      .execute()
    // A session made through the school's sign-in.
    const ritas = await createSessionToken(db(), rita.id)
    const login = () =>
      trpcPost(server.baseUrl, 'auth.login', { email: rita.email, password: rita.password, remember: false })
    expect((await login()).status).toBe(403)

    // "Offer" unticked: the verified domain no longer says learners join through the sign-in.
    await caller.schoolSso.save(
      settings({ domains: domain, requireForMembers: true, enabled: false, clientSecret: '' }),
    )
    expect((await caller.schoolSso.domainProofs()).map((row) => row.message)).toEqual([
      `Verified. Your sign-in is not offered now, so nobody at ${domain} joins or signs in through it until you offer it again.`,
    ])

    expect((await caller.schoolSso.remove()).settings).toBeNull()
    const left = (table: 'school_sso' | 'school_sso_domain_proofs' | 'school_sso_links') =>
      db().selectFrom(table).select('school_id').where('school_id', '=', school.id).execute()
    expect([await left('school_sso'), await left('school_sso_domain_proofs'), await left('school_sso_links')]).toEqual([
      [],
      [],
      [],
    ])
    // Nobody is held to a sign-in that is gone; nothing else ended.
    expect((await login()).status).toBe(200)
    expect(
      (await db().selectFrom('sessions').select('id').where('user_id', '=', rita.id).execute()).map((row) => row.id),
    ).toContain(ritas.session.id)
    // The domain is free for another school to prove.
    const next = await ownerCaller(await createCreator(db(), { plan: 'enterprise' }))
    await next.schoolSso.save(settings({ domains: domain }))
    expect(await publish(next)).toBe('verified')
    // Nothing left to remove; a learner has no school to remove it from.
    await expect(caller.schoolSso.remove()).rejects.toThrow('This school has no single sign-on to remove')
    await expect((await ownerCaller(rita)).schoolSso.remove()).rejects.toThrow(/Only approved creators/)
  })
})

describe('a new account through the school’s provider', () => {
  const schoolRow = () =>
    db().selectFrom('schools').select(['id', 'name']).where('slug', '=', slug).executeTakeFirstOrThrow()
  const usersAt = (email: string) => db().selectFrom('users').select('id').where('email', '=', email).execute()
  const linksOf = (subject: string) =>
    db().selectFrom('school_sso_links').select('user_id').where('subject', '=', subject).execute()
  // A code and the school's address: the page says it in its own words (decision 0144).
  const refusal = () => `/auth/callback?error=sso_domain_unproven&via=school&school=${slug}`

  it('is made only in an e-mail domain the school has proven: listed alone, the sign-in fails and writes nothing', async () => {
    const school = await schoolRow()
    await unproveEmailDomains()
    // A school may list a domain it does not run (someone else's company): its provider must not mint verified
    // accounts there, which would squat the addresses their real owners sign up with later.
    const refusedAndNothingWritten = async () => {
      const refused = await signInWithSso('nell')
      expect(refused.location).toBe(refusal())
      expect(refused.session).toBeUndefined()
      expect(await usersAt('nell@acme.test')).toEqual([])
      expect(await linksOf('nell')).toEqual([])
    }
    await refusedAndNothingWritten()
    // The owner is told so beside the domain.
    const proofOf = async (domain: string) =>
      (await (await ownerCaller(owner)).schoolSso.domainProofs()).find((row) => row.domain === domain)
    expect((await proofOf('acme.test'))?.message).toContain(
      'Until it is verified, new learners at acme.test cannot join through your sign-in.',
    )
    // A record that is missing, or that does not hold the token, proves nothing; nor does another listed domain's
    // proof, nor a verified custom domain under it (a sub-zone someone else may run).
    expect(await proveEmailDomain('acme.test', 'sf-not-the-token')).toMatchObject({ status: 'mismatch' })
    expect((await proofOf('acme.test'))?.message).toContain('new learners at acme.test cannot join')
    await refusedAndNothingWritten()
    expect(await proveEmailDomain('acme-labs.test')).toMatchObject({ status: 'verified' })
    await db().deleteFrom('school_domains').where('school_id', '=', school.id).execute()
    await db()
      .insertInto('school_domains')
      .values({
        school_id: school.id,
        hostname: 'learn.acme.test',
        verification_token: 'proof',
        verified_at: new Date(),
      })
      .execute()
    await refusedAndNothingWritten()
    await db().deleteFrom('school_domains').where('school_id', '=', school.id).execute()

    // Proven: made as before, verified and without a password, linked to the provider's subject.
    expect(await proveEmailDomain('acme.test')).toMatchObject({ status: 'verified' })
    expect((await proofOf('acme.test'))?.message).toContain('new learners at acme.test can join')
    const made = await signInWithSso('nell')
    expect(made.location).toBe('/auth/callback?redirect=/account')
    const nell = await me(made.session ?? '')
    expect(nell?.email).toBe('nell@acme.test')
    expect(
      await db()
        .selectFrom('users')
        .select(['email_verified', 'password_hash'])
        .where('id', '=', nell?.id ?? '')
        .executeTakeFirstOrThrow(),
    ).toEqual({ email_verified: true, password_hash: null })
    expect(await linksOf('nell')).toEqual([{ user_id: nell?.id }])
  })

  it('is refused once the domain’s proof lapses, while an identity linked before still signs in', async () => {
    const school = await schoolRow()
    await unproveEmailDomains()
    expect(await proveEmailDomain('acme.test')).toMatchObject({ status: 'verified' })
    const olga = await me((await signInWithSso('olga')).session ?? '')
    expect(olga?.email).toBe('olga@acme.test')

    // The record is taken down; the re-check finds it missing, and a day later still missing: the proof lapses.
    dns.records.clear()
    const now = Date.now()
    expect(await recordSsoDomainCheck(db(), school.id, 'acme.test', 'missing', new Date(now + 1000))).toBe('recorded')
    // Within the grace the domain is still verified, only at risk.
    const failing = await (await ownerCaller(owner)).schoolSso.domainProofs()
    expect(failing.find((row) => row.domain === 'acme.test')?.status).toBe('failing')
    const at = new Date(now + 1000 + DNS_PROOF_LAPSE_GRACE_MS)
    expect(await recordSsoDomainCheck(db(), school.id, 'acme.test', 'missing', at)).toBe('lapsed')
    const lapsed = (await (await ownerCaller(owner)).schoolSso.domainProofs()).find((row) => row.domain === 'acme.test')
    expect(lapsed?.status).toBe('lapsed')
    expect(lapsed?.message).toContain('New learners at acme.test cannot join through your sign-in')

    // A new address there: refused, nothing written.
    const refused = await signInWithSso('quinn')
    expect(refused.location).toBe(refusal())
    expect(refused.session).toBeUndefined()
    expect(await usersAt('quinn@acme.test')).toEqual([])
    expect(await linksOf('quinn')).toEqual([])
    // Olga's link (issuer and subject) was made while the school held the domain: it keeps signing her in.
    const again = await signInWithSso('olga')
    expect(again.location).toBe('/auth/callback?redirect=/account')
    expect((await me(again.session ?? ''))?.id).toBe(olga?.id)
    await unproveEmailDomains()
  })
})

describe('linking an existing account on its owner’s consent', () => {
  it('holds the sign-in for the signed-in owner, links it after a fresh proof only, and unlinks it', async () => {
    const school = await db()
      .selectFrom('schools')
      .select(['id', 'name'])
      .where('slug', '=', slug)
      .executeTakeFirstOrThrow()
    // The school has proven no domain: its provider's word alone cannot claim dana@acme.test.
    await db().deleteFrom('school_domains').where('school_id', '=', school.id).execute()
    await unproveEmailDomains()
    const dana = await createUser(db(), { email: 'dana@acme.test' })
    const links = () => db().selectFrom('school_sso_links').select('user_id').where('subject', '=', 'dana').execute()
    const pending = () =>
      db().selectFrom('school_sso_pending_links').select('session_id').where('user_id', '=', dana.id).execute()

    // Signed out: refused as before, told how to link, nothing held.
    const signedOut = await signInWithSso('dana')
    expect(signedOut.location).toContain('error=sso_existing_account')
    expect(signedOut.session).toBeUndefined()
    expect(await pending()).toEqual([])

    // Someone else signed in: their session does not make dana's address theirs.
    const eve = await createUser(db())
    const eveSession = await createSessionToken(db(), eve.id)
    const asEve = await signInWithSso('dana', eveSession)
    expect(asEve.location).toContain('error=sso_existing_account')
    expect(await db().selectFrom('school_sso_pending_links').select('user_id').execute()).toEqual([])

    // Dana signed in: the sign-in waits for her consent on /account/sso-link; no new session, nothing linked yet.
    const danaSession = await createSessionToken(db(), dana.id)
    const held = await signInWithSso('dana', danaSession)
    expect(held.location).toBe('/account/sso-link')
    expect(held.session).toBeUndefined()
    expect(await links()).toEqual([])
    const danaCaller = createCaller(createContextInner({ db: db(), user: dana, session: danaSession.session, config }))
    expect(await danaCaller.schoolSso.pendingLink()).toEqual({
      schoolName: school.name,
      email: 'dana@acme.test',
      confirm: { hasPassword: true, hasTwoFactor: false },
    })
    // A visitor reaches none of it.
    const visitor = createCaller(createContextInner({ db: db(), user: null, session: null, config }))
    await expect(visitor.schoolSso.pendingLink()).rejects.toMatchObject({ code: 'UNAUTHORIZED' })
    await expect(visitor.schoolSso.confirmLink({ password: dana.password })).rejects.toMatchObject({
      code: 'UNAUTHORIZED',
    })
    await expect(visitor.schoolSso.unlink({ schoolId: school.id })).rejects.toMatchObject({ code: 'UNAUTHORIZED' })
    // Held for that browser session only.
    const otherTab = await ownerCaller(dana)
    expect(await otherTab.schoolSso.pendingLink()).toBeNull()
    await expect(otherTab.schoolSso.confirmLink({ password: dana.password })).rejects.toThrow(
      'No school sign-in is waiting',
    )

    // The session alone is not enough: the password is asked for, and a wrong one links nothing.
    await expect(danaCaller.schoolSso.confirmLink({})).rejects.toThrow('Enter your password')
    await expect(danaCaller.schoolSso.confirmLink({ password: 'not-her-password' })).rejects.toThrow(
      'That password is not right.',
    )
    expect(await links()).toEqual([])
    expect(await danaCaller.schoolSso.confirmLink({ password: dana.password })).toEqual({
      schoolName: school.name,
      redirect: '/account',
    })
    expect(await links()).toEqual([{ user_id: dana.id }])
    expect(await pending()).toEqual([])
    const notice = await db()
      .selectFrom('mail_outbox')
      .select(['subject', 'text_body'])
      .where('to_address', '=', 'dana@acme.test')
      .where('kind', '=', 'sso-linked')
      .executeTakeFirstOrThrow()
    expect(notice.subject).toContain(`linked to ${school.name}`)
    expect(notice.text_body).toContain('/account/security')
    // Once only.
    await expect(danaCaller.schoolSso.confirmLink({ password: dana.password })).rejects.toThrow(
      'No school sign-in is waiting',
    )

    // Linked: the school's sign-in now signs in as dana.
    expect((await me((await signInWithSso('dana')).session ?? ''))?.id).toBe(dana.id)
    expect(await danaCaller.schoolSso.linked()).toMatchObject([{ schoolId: school.id, schoolName: school.name }])

    // Unlinked: refused again; her password still signs in.
    await danaCaller.schoolSso.unlink({ schoolId: school.id })
    expect(await links()).toEqual([])
    expect((await signInWithSso('dana')).location).toContain('error=sso_existing_account')
    await expect(danaCaller.schoolSso.unlink({ schoolId: school.id })).rejects.toThrow('not linked')
    const login = await trpcPost(server.baseUrl, 'auth.login', {
      email: dana.email,
      password: dana.password,
      remember: false,
    })
    expect(login.status).toBe(200)
  })

  it('drops a waiting sign-in on “Don’t link”, and after 10 minutes', async () => {
    await unproveEmailDomains()
    const finn = await createUser(db(), { email: 'finn@acme.test' })
    const finnSession = await createSessionToken(db(), finn.id)
    const caller = createCaller(createContextInner({ db: db(), user: finn, session: finnSession.session, config }))
    expect((await signInWithSso('finn', finnSession)).location).toBe('/account/sso-link')
    await caller.schoolSso.cancelLink()
    expect(await caller.schoolSso.pendingLink()).toBeNull()

    expect((await signInWithSso('finn', finnSession)).location).toBe('/account/sso-link')
    await db()
      .updateTable('school_sso_pending_links')
      .set({ expires_at: new Date(Date.now() - 1000) })
      .where('session_id', '=', finnSession.session.id)
      .execute()
    expect(await caller.schoolSso.pendingLink()).toBeNull()
    await expect(caller.schoolSso.confirmLink({ code: '123456' })).rejects.toThrow('No school sign-in is waiting')
  })
})

describe('a school that requires SSO for its members', () => {
  it('holds to it members whose address is in a domain it proved by DNS, and never hands its provider a member’s account', async () => {
    const school = await db()
      .selectFrom('schools')
      .select(['id', 'name'])
      .where('slug', '=', slug)
      .executeTakeFirstOrThrow()
    const verifiedCustomDomain = (hostname: string) =>
      db()
        .insertInto('school_domains')
        .values({ school_id: school.id, hostname, verification_token: 'proof', verified_at: new Date() })
        .onConflict((oc) => oc.column('school_id').doUpdateSet({ hostname, verified_at: new Date() }))
        .execute()
    await unproveEmailDomains()
    await verifiedCustomDomain('learn.acme-labs.test')
    const member = await createUser(db(), { email: 'member@acme.test' })
    await db()
      .insertInto('school_members')
      .values({ school_id: school.id, user_id: member.id, role: 'support' })
      .execute()
    const stranger = await createUser(db())
    const login = (user: TestUser) =>
      trpcPost(server.baseUrl, 'auth.login', { email: user.email, password: user.password, remember: false })

    expect((await login(member)).status).toBe(200)
    await (await ownerCaller(owner)).schoolSso.save(settings({ clientSecret: '', requireForMembers: true }))
    // acme.test is not a domain this school proved: its own provider asserting the member's address must not sign
    // in as them (their whole account, not only their place on the team), and the school cannot take their
    // password away either.
    const claimed = await signInWithSso('member')
    expect(claimed.location).toContain('error=sso_existing_account')
    expect(claimed.session).toBeUndefined()
    expect((await login(member)).status).toBe(200)

    // A verified custom domain under acme.test proves nothing about acme.test's mailboxes: not held to it either.
    await verifiedCustomDomain('learn.acme.test')
    expect((await login(member)).status).toBe(200)

    // Once the school proves acme.test itself by its TXT record, its members there sign in through it only.
    expect(await proveEmailDomain('acme.test')).toMatchObject({ status: 'verified' })
    const refused = await login(member)
    expect(refused.status).toBe(403)
    expect(await refused.text()).toContain(`${school.name} requires its members to sign in with single sign-on`)
    expect(setCookieFor(refused, SESSION_COOKIE)).toBeUndefined()
    expect((await login(stranger)).status).toBe(200)
    expect((await me((await signInWithSso('member')).session ?? ''))?.id).toBe(member.id)

    // The owner's plan lapses: the school's sign-in button is gone, so its members must not be held to it.
    await lapsePlan(db(), owner.id)
    expect(await (await ownerCaller(stranger)).schoolSso.forSchool({ slug })).toBeNull()
    expect((await login(member)).status).toBe(200)
    await restorePlan(db(), owner.id)
    expect((await login(member)).status).toBe(403)
    await (await ownerCaller(owner)).schoolSso.save(settings({ clientSecret: '' }))
  })
})

describe('an issuer on a private address (server-side request forgery)', () => {
  it('is refused with a clear error when SSO_HTTP_ISSUERS is not loopback, before any request reaches it', async () => {
    const strict = { ...config, ssoHttpIssuers: undefined }
    const creator = await createCreator(db(), { plan: 'enterprise' })
    const { session } = await createSessionToken(db(), creator.id)
    const caller = createCaller(createContextInner({ db: db(), user: creator, session, config: strict }))
    const port = new URL(provider.issuer).port
    const save = (issuer: string) => caller.schoolSso.save({ ...settings({ domains: 'private-net.test' }), issuer })
    // Addresses written out, and a name (localhost) whose look-up answers 127.0.0.1: the provider listens there, so
    // without the guard the last would reach it (and fail on TLS with another message).
    for (const issuer of [
      'https://10.0.0.1',
      'https://169.254.169.254/',
      'https://192.168.1.20/realms/acme',
      'https://[::ffff:127.0.0.1]',
      `https://localhost:${port}`,
    ]) {
      await expect(save(issuer), issuer).rejects.toThrow(
        'The issuer must be on the public internet: private, loopback and link-local addresses are refused',
      )
    }
    await expect(save('http://10.0.0.1')).rejects.toThrow(/must be an https address/)
    const school = await db()
      .selectFrom('schools')
      .select('id')
      .where('owner_id', '=', creator.id)
      .executeTakeFirstOrThrow()
    expect(
      await db().selectFrom('school_sso').select('school_id').where('school_id', '=', school.id).execute(),
    ).toEqual([])
  })

  it('the guarded fetch refuses a name resolving to loopback, and reaches it only when private targets are allowed', async () => {
    const port = new URL(provider.issuer).port
    const discovery = `http://localhost:${port}/.well-known/openid-configuration`
    await expect(guardedFetch(false)(discovery)).rejects.toBeInstanceOf(PrivateTargetError)
    await expect(guardedFetch(false)(`${provider.issuer}/.well-known/openid-configuration`)).rejects.toThrow(
      /private address/,
    )
    const allowed = await guardedFetch(true)(discovery, { headers: { accept: 'application/json' } })
    expect(allowed.status).toBe(200)
    expect(((await allowed.json()) as { issuer: string }).issuer).toBe(provider.issuer)
  })
})

describe('signing in on the school’s own domain', () => {
  async function verifiedDomain(hostname: string, schoolSlug = slug) {
    const school = await db()
      .selectFrom('schools')
      .select('id')
      .where('slug', '=', schoolSlug)
      .executeTakeFirstOrThrow()
    await db().deleteFrom('school_domains').where('school_id', '=', school.id).execute()
    await db()
      .insertInto('school_domains')
      .values({ school_id: school.id, hostname, verification_token: 'proof', verified_at: new Date() })
      .execute()
  }
  const trpcGet = (path: string, host: string, input?: unknown) =>
    getOn(host, `/trpc/${path}${input ? `?input=${encodeURIComponent(JSON.stringify(input))}` : ''}`).then(
      async (response) => ((await response.json()) as { result: { data: unknown } }).result.data,
    )

  it('runs the whole flow on that domain, and the session is that site’s', async () => {
    await verifiedDomain(SCHOOL_HOST)
    await (await ownerCaller(owner)).schoolSso.save(settings())
    // Gail has no account yet: one is made only in a domain the school proved.
    expect(await proveEmailDomain('acme-labs.test')).toMatchObject({ status: 'verified' })
    // The owner registers the domain's return address too: the SSO page shows both.
    const panel = await (await ownerCaller(owner)).schoolSso.mine()
    expect(panel.redirectUri).toBe(`${PUBLIC_URL}/auth/sso/callback`)
    expect(panel.domainRedirectUri).toBe(`http://${SCHOOL_HOST}/auth/sso/callback`)

    const result = await signInWithSso('gail', undefined, SCHOOL_HOST)
    expect(result.location).toBe('/auth/callback?redirect=/account')
    expect((await me(result.session ?? '', SCHOOL_HOST))?.email).toBe('gail@acme-labs.test')
    // Made on the school's domain, the session opens nothing on the platform's host.
    expect(await me(result.session ?? '')).toBeNull()
    const row = await db()
      .selectFrom('sessions')
      .innerJoin('users', 'users.id', 'sessions.user_id')
      .select('sessions.site_host')
      .where('users.email', '=', 'gail@acme-labs.test')
      .executeTakeFirstOrThrow()
    expect(row.site_host).toBe(SCHOOL_HOST)
  })

  it('offers the school’s sign-in on its domain’s log-in page, and Google and Facebook only on the platform’s', async () => {
    await verifiedDomain(SCHOOL_HOST)
    const school = await db().selectFrom('schools').select('name').where('slug', '=', slug).executeTakeFirstOrThrow()
    // Its passwords are typed on the platform's page (decision 0063: tests/integration/auth/sign-in-handoff.test.ts).
    expect(await trpcGet('auth.providers', SCHOOL_HOST)).toEqual({
      oauth: [],
      school: { name: school.name, slug },
      passwordsHandedOff: true,
      platformUrl: PUBLIC_URL,
    })
    expect(await trpcGet('auth.providers', 'storefront.test')).toMatchObject({ school: null })
    expect(await trpcGet('schoolSso.forSchool', 'storefront.test', { slug })).toEqual({ name: school.name, slug })
    // Their flows return to the platform's address, where they start too (no cookie would be found otherwise).
    const google = await getOn(SCHOOL_HOST, '/auth/google?redirect=/account')
    expect(google.status).toBe(302)
    expect(google.headers.get('location')).toBe(`${PUBLIC_URL}/auth/google?redirect=/account`)
  })

  it('started under another school’s domain, goes to the platform’s host first', async () => {
    const other = await createCreator(db(), { plan: 'enterprise' })
    await (await ownerCaller(other)).schools.saveSettings({ name: 'Other Academy', slug: 'other-academy-sso' })
    await verifiedDomain('learn.other-academy.test', 'other-academy-sso')
    const start = await getOn('learn.other-academy.test', `/auth/sso/${slug}?redirect=/account`)
    expect(start.status).toBe(302)
    expect(start.headers.get('location')).toBe(`${PUBLIC_URL}/auth/sso/${slug}?redirect=%2Faccount`)
    expect(setCookieFor(start, 'sso_flow')).toBeUndefined()
  })
})
