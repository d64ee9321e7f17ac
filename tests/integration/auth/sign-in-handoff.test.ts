// Signing in on a school's own domain without typing a password there (decision 0063): the domain hands the sign-in
// to the platform's host, which posts a one-time code back (never in a URL); the domain opens a session, its own
// alone, only for the browser that asked (its verifier cookie). Passwords are refused under the domain, a code works
// once, for its domain, within a minute, and staff are never handed.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { HANDOFF_TTL_MS } from '../../../src-server/auth/handoffs.ts'
import { createSession, SESSION_COOKIE } from '../../../src-server/auth/session.ts'
import { putSchoolMember } from '../../../src-server/creators/school-team.ts'
import { ensureSchool } from '../../../src-server/creators/schools.ts'
import { endSessionsHeldToSso } from '../../../src-server/flows/sso-hold.ts'
import type { DatabaseHandle } from '../../../src-server/kernel/db.ts'
import { createCreator } from '../../support/creator-courses.ts'
import { createTestDatabase } from '../../support/db.ts'
import { createSessionToken, createUser, type TestUser } from '../../support/factories.ts'
import { startTestServer, type TestServer } from '../../support/http.ts'

const PLATFORM = 'storefront.test'
const SCHOOL_HOST = 'learn.handoff-academy.test'
const OTHER_SCHOOL_HOST = 'learn.other-academy.test'

let database: DatabaseHandle
let server: TestServer
let learner: TestUser
const db = () => database.db

async function verifiedSchool(hostname: string, name: string) {
  const owner = await createCreator(db(), { plan: 'enterprise' })
  const school = await ensureSchool(db(), owner.id)
  await db().updateTable('schools').set({ name }).where('id', '=', school.id).execute()
  await db()
    .insertInto('school_domains')
    .values({ school_id: school.id, hostname, verification_token: 'proof', verified_at: new Date() })
    .execute()
  return { schoolId: school.id, ownerId: owner.id }
}

type Answer = { status: number; location: string; body: string; cookies: string[] }

/** A request as a browser sends it on `host` (redirects not followed). */
async function request(
  host: string,
  method: 'GET' | 'POST',
  url: string,
  options: { cookie?: string; form?: Record<string, string>; origin?: string } = {},
): Promise<Answer> {
  const answer = await server.server.app.inject({
    method,
    url,
    headers: {
      host,
      ...(options.cookie ? { cookie: options.cookie } : {}),
      ...(options.form ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
      ...(options.origin ? { origin: options.origin } : {}),
    },
    payload: options.form ? new URLSearchParams(options.form).toString() : undefined,
  })
  const setCookie = answer.headers['set-cookie']
  return {
    status: answer.statusCode,
    location: String(answer.headers.location ?? ''),
    body: answer.body,
    cookies: (Array.isArray(setCookie) ? setCookie : setCookie ? [setCookie] : []).map(String),
  }
}

const cookieValue = (answer: Answer, name: string) =>
  answer.cookies
    .find((line) => line.startsWith(`${name}=`))
    ?.split(';')[0]
    ?.slice(name.length + 1)

/** The hidden fields and action of the auto-posting page. */
function onwardForm(answer: Answer) {
  const action = /<form method="post" action="([^"]+)"/.exec(answer.body)?.[1] ?? ''
  const fields = Object.fromEntries(
    [...answer.body.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)].map((m) => [m[1], m[2]]),
  )
  return { action: action.replaceAll('&amp;', '&'), fields: fields as Record<string, string> }
}

/** The domain's start: the verifier cookie and the platform page's query. */
async function start(host = SCHOOL_HOST, next = '/account') {
  const started = await request(host, 'GET', `/auth/handoff/start?next=${encodeURIComponent(next)}`)
  expect(started.status).toBe(302)
  const verifier = cookieValue(started, 'sf_handoff') ?? ''
  const target = new URL(started.location)
  return { verifier, target, started }
}

/** The learner's "Continue" on the platform, signed in there: the page that posts the code on to the domain. */
async function continueOnPlatform(user: TestUser, target: URL, overrides: Record<string, string> = {}) {
  const { token } = await createSessionToken(db(), user.id)
  const fields = {
    site: target.searchParams.get('site') ?? '',
    challenge: target.searchParams.get('challenge') ?? '',
    next: target.searchParams.get('next') ?? '/',
    ...overrides,
  }
  return request(PLATFORM, 'POST', '/auth/handoff', {
    cookie: `${SESSION_COOKIE}=${token}`,
    form: fields,
    origin: `http://${PLATFORM}`,
  })
}

/** The domain's two steps: the cross-site post (no cookie), then the same-origin one with the verifier cookie. */
async function finishOnDomain(host: string, code: string, verifier: string | undefined, next = '/account') {
  const complete = await request(host, 'POST', '/auth/handoff/complete', {
    form: { code, next },
    origin: `http://${PLATFORM}`,
  })
  expect(complete.status).toBe(200)
  const onward = onwardForm(complete)
  expect(onward.action).toBe(`http://${host}/auth/handoff/finish`)
  return request(host, 'POST', '/auth/handoff/finish', {
    form: onward.fields,
    cookie: verifier ? `sf_handoff=${verifier}` : undefined,
    origin: `http://${host}`,
  })
}

async function sessionSite(answer: Answer) {
  const token = cookieValue(answer, SESSION_COOKIE)
  if (!token) return undefined
  const sessions = await db()
    .selectFrom('sessions')
    .select(['site_host', 'user_id'])
    .where('user_id', '=', learner.id)
    .orderBy('created_at', 'desc')
    .execute()
  return sessions[0]
}

beforeAll(async () => {
  database = await createTestDatabase()
  server = await startTestServer(db())
  learner = await createUser(db(), { email: 'handoff-learner@example.test' })
  await verifiedSchool(SCHOOL_HOST, 'Handoff Academy')
  await verifiedSchool(OTHER_SCHOOL_HOST, 'Other Academy')
})

afterAll(async () => {
  await server?.stop()
  await database?.close()
})

describe('signing in on a school’s domain through the platform’s page', () => {
  it('hands the sign-in over and back: the domain gets a session of its own, the code never in a URL', async () => {
    const { verifier, target } = await start()
    expect(verifier.length).toBeGreaterThan(40)
    expect(`${target.origin}${target.pathname}`).toBe(`http://${PLATFORM}/handoff`)
    expect(target.searchParams.get('site')).toBe(SCHOOL_HOST)
    expect(target.searchParams.get('challenge')).toMatch(/^[A-Za-z0-9_-]{43}$/)
    // The verifier itself never leaves the domain's cookie.
    expect(target.href).not.toContain(verifier)

    const onward = await continueOnPlatform(learner, target)
    expect(onward.status).toBe(200)
    expect(onward.cookies).toEqual([])
    const form = onwardForm(onward)
    expect(form.action).toBe(`http://${SCHOOL_HOST}/auth/handoff/complete`)
    expect(form.fields.code).toMatch(/^[a-z2-7]{40}$/)
    expect(form.action).not.toContain(form.fields.code)
    expect(onward.location).toBe('')

    const finished = await finishOnDomain(SCHOOL_HOST, form.fields.code ?? '', verifier)
    expect(finished.status).toBe(303)
    expect(finished.location).toBe('/account')
    expect(await sessionSite(finished)).toMatchObject({ site_host: SCHOOL_HOST, user_id: learner.id })

    // Used once: the same code again opens nothing.
    const again = await finishOnDomain(SCHOOL_HOST, form.fields.code ?? '', verifier)
    expect(again.location).toBe('/login?handoff=failed')
    expect(cookieValue(again, SESSION_COOKIE)).toBeUndefined()
  })

  it('opens nothing for a browser without the verifier that asked (a code carried into another browser)', async () => {
    const { target } = await start()
    const code = onwardForm(await continueOnPlatform(learner, target)).fields.code ?? ''
    const forged = await finishOnDomain(SCHOOL_HOST, code, undefined)
    expect(forged.location).toBe('/login?handoff=failed')
    expect(cookieValue(forged, SESSION_COOKIE)).toBeUndefined()
    const otherVerifier = (await start()).verifier
    const wrong = await finishOnDomain(SCHOOL_HOST, code, otherVerifier)
    expect(wrong.location).toBe('/login?handoff=failed')
  })

  it('opens nothing on another school’s domain, or after a minute', async () => {
    const { verifier, target } = await start()
    const code = onwardForm(await continueOnPlatform(learner, target)).fields.code ?? ''
    const elsewhere = await finishOnDomain(OTHER_SCHOOL_HOST, code, verifier)
    expect(elsewhere.location).toBe('/login?handoff=failed')

    const late = await start()
    const lateCode = onwardForm(await continueOnPlatform(learner, late.target)).fields.code ?? ''
    await db()
      .updateTable('sign_in_handoffs')
      .set({ expires_at: new Date(Date.now() - 1) })
      .where('used_at', 'is', null)
      .execute()
    expect(HANDOFF_TTL_MS).toBe(60_000)
    const expired = await finishOnDomain(SCHOOL_HOST, lateCode, late.verifier)
    expect(expired.location).toBe('/login?handoff=failed')
  })

  it('opens nothing with a code given just before the school’s required sign-in held the learner (decision 0152)', async () => {
    const host = 'learn.held-academy.test'
    const { schoolId, ownerId } = await verifiedSchool(host, 'Held Academy')
    const kit = await createUser(db(), { email: 'kit@held-academy.test' })
    await db()
      .insertInto('school_sso')
      .values({
        school_id: schoolId,
        issuer: 'https://login.held-academy.test',
        client_id: 'client',
        client_secret_sealed: 'raw:c2VjcmV0',
        allowed_domains: JSON.stringify(['held-academy.test']),
        enabled: true,
        require_for_members: true,
      })
      .execute()
    await db()
      .insertInto('school_sso_domain_proofs')
      .values({ school_id: schoolId, domain: 'held-academy.test', token: 'sf-held', verified_at: new Date() })
      .execute()
    const { verifier, target } = await start(host)
    const code = onwardForm(await continueOnPlatform(kit, target)).fields.code ?? ''

    // Kit joins the team with the code in flight: the hold ends her sessions, and the code with them.
    await db()
      .transaction()
      .execute(async (trx) => {
        await putSchoolMember(trx, { schoolId, userId: kit.id, role: 'support', addedBy: ownerId })
        expect(await endSessionsHeldToSso(trx, schoolId, { userId: kit.id })).toEqual([kit.id])
      })
    const finished = await finishOnDomain(host, code, verifier)
    expect(finished.location).toBe('/login?handoff=failed')
    expect(cookieValue(finished, SESSION_COOKIE)).toBeUndefined()
    expect(await db().selectFrom('sessions').select('id').where('user_id', '=', kit.id).execute()).toEqual([])
  })

  it('sends a visitor through the platform’s log-in first, and never hands a staff account', async () => {
    const { target } = await start()
    const visitor = await request(PLATFORM, 'POST', '/auth/handoff', {
      form: { site: SCHOOL_HOST, challenge: target.searchParams.get('challenge') ?? '', next: '/account' },
      origin: `http://${PLATFORM}`,
    })
    expect(visitor.status).toBe(303)
    expect(decodeURIComponent(visitor.location)).toMatch(/^\/login\?redirect=\/handoff\?site=learn\.handoff-academy/)

    const staff = await createUser(db(), { role: 'admin' })
    const refused = await continueOnPlatform(staff, target)
    expect(refused.status).toBe(303)
    expect(refused.location).toMatch(/^\/handoff\?/)
    expect(
      await db().selectFrom('sign_in_handoffs').select('code_hash').where('user_id', '=', staff.id).execute(),
    ).toEqual([])

    // A name no school holds: nothing to hand; the platform's own log-in.
    const platformStart = await request(PLATFORM, 'GET', '/auth/handoff/start?next=/courses')
    expect(platformStart.location).toBe('/login?redirect=%2Fcourses')
  })

  it('refuses passwords under the school’s domain and offers the hand-off instead', async () => {
    const login = await server.server.app.inject({
      method: 'POST',
      url: '/trpc/auth.login',
      headers: { host: SCHOOL_HOST, origin: `http://${SCHOOL_HOST}`, 'content-type': 'application/json' },
      payload: { email: learner.email, password: 'password123!', remember: false },
    })
    expect(login.statusCode).toBe(403)
    expect(login.body).toContain('secure sign-in page')
    const providers = await server.server.app.inject({
      method: 'GET',
      url: '/trpc/auth.providers',
      headers: { host: SCHOOL_HOST },
    })
    expect(JSON.parse(providers.body).result.data.passwordsHandedOff).toBe(true)
    const onPlatform = await server.server.app.inject({
      method: 'GET',
      url: '/trpc/auth.providers',
      headers: { host: PLATFORM },
    })
    expect(JSON.parse(onPlatform.body).result.data.passwordsHandedOff).toBe(false)
  })

  it('confirms sensitive actions there with an e-mailed code, never the password', async () => {
    const { token } = await createSession(db(), learner.id, true, undefined, { siteHost: SCHOOL_HOST })
    const call = async (
      procedure: string,
      input?: unknown,
      host = SCHOOL_HOST,
      cookie = `${SESSION_COOKIE}=${token}`,
    ) => {
      const answer = await server.server.app.inject({
        method: input === undefined ? 'GET' : 'POST',
        url: `/trpc/${procedure}`,
        headers: { host, origin: `http://${host}`, cookie, 'content-type': 'application/json' },
        payload: input === undefined ? undefined : JSON.stringify(input),
      })
      return { status: answer.statusCode, body: answer.body }
    }
    const deletion = await call('privacy.deletion')
    expect(JSON.parse(deletion.body).result.data.confirm).toMatchObject({ hasPassword: false })
    const withPassword = await call('privacy.requestExport', { password: learner.password })
    expect(withPassword.status).toBe(400)
    expect(await call('privacy.sendConfirmationCode', { action: 'export-data' })).toMatchObject({ status: 200 })
    const mail = await db()
      .selectFrom('mail_outbox')
      .select('text_body')
      .where('to_address', '=', learner.email)
      .orderBy('created_at', 'desc')
      .executeTakeFirstOrThrow()
    const code = /^ {2}Code: ([a-z2-7]{13})$/m.exec(mail.text_body)?.[1] ?? ''
    expect((await call('privacy.requestExport', { code })).status).toBe(200)
    // On the platform's host the same account confirms with its password, as before.
    const platform = await createSessionToken(db(), learner.id)
    const there = await call('privacy.deletion', undefined, PLATFORM, `${SESSION_COOKIE}=${platform.token}`)
    expect(JSON.parse(there.body).result.data.confirm).toMatchObject({ hasPassword: true })
  })
})
