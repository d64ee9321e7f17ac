// "Require single sign-on" holds a school's members on every way in but the school's own sign-in (decisions 0062,
// 0130): once the owner switches it on (or proves a member's e-mail domain while it is on), the members it holds lose
// the sessions and half-finished log-ins they made before, and neither their password, a passkey they added earlier
// nor Google signs them in again; nor may they add a passkey. The owner, and members at another domain, keep theirs.
// The password's refusal names whom to ask, and the owner's removal releases the member (decision 0144). Someone who
// joins such a school already held loses their sessions made another way at once, the accepting one too.

import { decodeBase32IgnorePadding } from '@oslojs/encoding'
import { generateHOTP } from '@oslojs/otp'
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import { issueHandoff, newHandoffVerifier, redeemHandoff } from '../../../src-server/auth/handoffs.ts'
import { startSession } from '../../../src-server/auth/login.ts'
import { createPendingLogin, PENDING_LOGIN_COOKIE } from '../../../src-server/auth/pending-login.ts'
import { SESSION_COOKIE } from '../../../src-server/auth/session.ts'
import { totpStep } from '../../../src-server/auth/totp.ts'
import { confirmTotpEnrolment, startTotpEnrolment } from '../../../src-server/auth/two-factor.ts'
import { putSchoolMember } from '../../../src-server/creators/school-team.ts'
import { lockTeamSeats } from '../../../src-server/flows/creator-standing.ts'
import { EMAIL_CHANGE_MESSAGES } from '../../../src-server/flows/email-change.ts'
import { endSessionsHeldToSso } from '../../../src-server/flows/sso-hold.ts'
import { defaultAppConfig } from '../../../src-server/kernel/config.ts'
import { type DatabaseHandle, type DB, inTransaction } from '../../../src-server/kernel/db.ts'
import { latestMailTo } from '../../../src-server/mail/outbox.ts'
import { createCaller } from '../../../src-server/routers/_app.ts'
import { createContextInner } from '../../../src-server/trpc/context.ts'
import { createCreator } from '../../support/creator-courses.ts'
import { createTestDatabase } from '../../support/db.ts'
import { callerAs, createSessionToken, createUser, type TestUser } from '../../support/factories.ts'
import { type FakeOAuth, fakeOAuthProviders } from '../../support/fake-oauth.ts'
import { cookiePair, setCookieFor, startTestServer, type TestServer, trpcPost } from '../../support/http.ts'
import { type LocalOidcProvider, startOidcProvider } from '../../support/oidc-provider.ts'
import { raceIt, whileHeld } from '../../support/race.ts'
import { softAuthenticator } from '../../support/soft-authenticator.ts'

const PUBLIC_URL = 'http://storefront.test'
// callerAs builds the context without a request: passkeys are the default public URL's.
const PASSKEY_ORIGIN = 'http://localhost:3000'
const HELD = /requires its members to sign in with single sign-on/
/** The TXT records the owner published, by name (the check's look-up reads them). */
const records = new Map<string, string>()
const config = {
  ...defaultAppConfig,
  publicUrl: PUBLIC_URL,
  ssoHttpIssuers: 'loopback' as const,
  txtLookup: async (name: string) => (records.has(name) ? [[records.get(name) as string]] : []),
}

let database: DatabaseHandle
let server: TestServer
let provider: LocalOidcProvider
let fake: FakeOAuth
const db = () => database.db

beforeAll(async () => {
  database = await createTestDatabase()
  server = await startTestServer(db(), {
    env: {
      SSO_HTTP_ISSUERS: 'loopback',
      GOOGLE_CLIENT_ID: 'google-id',
      GOOGLE_CLIENT_SECRET: 'google-secret',
    },
  })
  provider = await startOidcProvider({ redirectUris: [`${PUBLIC_URL}/auth/sso/callback`] })
  fake = fakeOAuthProviders()
})
afterAll(async () => {
  fake?.restore()
  await server?.stop()
  await provider?.close()
  await database?.close()
})

async function ownerCaller(user: TestUser) {
  const { session } = await createSessionToken(db(), user.id)
  return { caller: createCaller(createContextInner({ db: db(), user, session, config })), session }
}

type OwnerCaller = Awaited<ReturnType<typeof ownerCaller>>['caller']

const settings = (domains: string, requireForMembers: boolean) => ({
  issuer: provider.issuer,
  clientId: provider.clientId,
  clientSecret: provider.clientSecret,
  domains,
  enabled: true,
  requireForMembers,
})

/** Publishes the domain's TXT record and presses Check, as the owner does on /studio/sso. */
async function prove(caller: OwnerCaller, domain: string) {
  const proof = (await caller.schoolSso.domainProofs()).find((row) => row.domain === domain)
  if (!proof) throw new Error(`${domain} is not listed`)
  records.set(proof.recordName, proof.recordValue)
  return caller.schoolSso.checkDomain({ domain })
}

async function member(schoolOwner: TestUser, email: string) {
  const school = await db()
    .selectFrom('schools')
    .select('id')
    .where('owner_id', '=', schoolOwner.id)
    .executeTakeFirstOrThrow()
  const user = await createUser(db(), { email })
  await db()
    .insertInto('school_members')
    .values({ school_id: school.id, user_id: user.id, role: 'instructor', added_by: schoolOwner.id })
    .execute()
  return user
}

const sessionsOf = async (user: { id: string }) =>
  (await db().selectFrom('sessions').select('id').where('user_id', '=', user.id).execute()).map((row) => row.id)
const pendingLoginsOf = async (user: { id: string }) =>
  db().selectFrom('pending_logins').select('id').where('user_id', '=', user.id).execute()

/** "Sign in with Google" for an identity, through the real start and callback routes (Google faked). */
async function signInWithGoogle(email: string) {
  const start = await fetch(`${server.baseUrl}/auth/google`, { redirect: 'manual' })
  const cookies = start.headers
    .getSetCookie()
    .map((line) => line.split(';')[0])
    .join('; ')
  const state = new URL(start.headers.get('location') ?? '').searchParams.get('state') ?? ''
  const code = `code-${Math.random().toString(36).slice(2)}`
  fake.codes.set(code, { id: `g-${email}`, email })
  const callback = await fetch(`${server.baseUrl}/auth/google/callback?${new URLSearchParams({ code, state })}`, {
    redirect: 'manual',
    headers: { cookie: cookies },
  })
  return {
    location: decodeURIComponent(callback.headers.get('location') ?? ''),
    session: setCookieFor(callback, SESSION_COOKIE),
  }
}

describe('a school that requires its single sign-on', () => {
  it('ends its held members’ sessions when switched on, and lets no password, passkey or Google sign them in', async () => {
    const owner = await createCreator(db(), { plan: 'enterprise' })
    const { caller: owners, session: ownersSession } = await ownerCaller(owner)
    const { slug, name } = (await owners.schoolSso.save(settings('acme.test', false))).school
    expect((await prove(owners, 'acme.test')).status).toBe('verified')
    const max = await member(owner, 'max@acme.test')
    const pat = await member(owner, 'pat@personal.test')

    // Before the requirement: Max adds a passkey (a fresh proof, as always), and Google signs him in.
    const maxBefore = await callerAs(db(), max)
    expect((await maxBefore.security.overview()).passkeyRefusal).toBeNull()
    const authenticator = softAuthenticator()
    const options = await maxBefore.security.passkeyOptions({ password: max.password })
    await maxBefore.security.addPasskey({
      name: 'Laptop',
      response: authenticator.register(options, PASSKEY_ORIGIN) as never,
    })
    expect((await signInWithGoogle('max@acme.test')).location).toBe('/auth/callback?redirect=/')
    // A second passkey's ceremony started now, to be finished once the requirement is on.
    const lateOptions = await maxBefore.security.passkeyOptions({ password: max.password })
    await createPendingLogin(db(), max.id, false)
    expect((await sessionsOf(max)).length).toBeGreaterThan(0)
    const patSessions = [(await createSessionToken(db(), pat.id)).session.id]

    await owners.schoolSso.save(settings('acme.test', true))

    // Max's sessions and his half-finished log-in ended with the switch; Pat (a personal address, not the school's
    // to govern) and the owner (never held) keep theirs.
    expect(await sessionsOf(max)).toEqual([])
    expect(await pendingLoginsOf(max)).toEqual([])
    expect(await sessionsOf(pat)).toEqual(patSessions)
    expect(await sessionsOf(owner)).toContain(ownersSession.id)

    // No way in but the school's own: the password (403), the passkey he added before, Google.
    const password = await trpcPost(server.baseUrl, 'auth.login', {
      email: max.email,
      password: max.password,
      remember: false,
    })
    expect(password.status).toBe(403)
    // The refusal names the school's sign-in and carries the school, whose button the log-in page then offers (not
    // a path to find it by: decision 0143).
    const refusal = ((await password.json()) as { error: { message: string; data: { ssoSchool: string | null } } })
      .error
    // Locked out of the school's provider, Max is told whom to ask too: the owner, who can release him (0144).
    expect(refusal.message).toBe(
      `${name} requires its members to sign in with single sign-on: use “Sign in with ${name}”. If you cannot sign in there, ask the school’s owner (${owner.email}) to remove you from its team.`,
    )
    expect(refusal.data.ssoSchool).toBe(slug)
    const visitor = await callerAs(db(), null)
    const challenge = await visitor.auth.passkeyOptions()
    await expect(
      visitor.auth.passkeySignIn({ response: authenticator.assert(challenge, PASSKEY_ORIGIN, 1, max.id) as never }),
    ).rejects.toThrow(HELD)
    const google = await signInWithGoogle('max@acme.test')
    // A code and the school's address, never text: the page says it in its own words, naming the school.
    expect(google.location).toBe(`/auth/callback?error=sso_required&via=google&school=${slug}`)
    expect(google.session).toBeUndefined()
    expect(await sessionsOf(max)).toEqual([])

    // Signed in through the school, he adds no passkey: neither a new ceremony nor the one started before.
    const maxNow = await callerAs(db(), max)
    await expect(maxNow.security.passkeyOptions({ password: max.password })).rejects.toThrow(/cannot add a passkey/)
    await expect(
      maxNow.security.addPasskey({
        name: 'Phone',
        response: softAuthenticator().register(lateOptions, PASSKEY_ORIGIN) as never,
      }),
    ).rejects.toThrow(/cannot add a passkey/)
    const overview = await maxNow.security.overview()
    expect(overview.passkeys.map((row) => row.name)).toEqual(['Laptop'])
    // The page says so in place of the form (decision 0130 had it refused only when sent).
    expect(overview.passkeyRefusal).toBe(
      `${name} requires its members to sign in with single sign-on, so this account cannot add a passkey`,
    )

    // Saved again with the requirement still on: nothing more ends (a session made through the school stays).
    const kept = await sessionsOf(max)
    await owners.schoolSso.save(settings('acme.test', true))
    expect(await sessionsOf(max)).toEqual(kept)

    // A member at a domain the school does not govern still signs in with the password.
    const patLogin = await trpcPost(server.baseUrl, 'auth.login', {
      email: pat.email,
      password: pat.password,
      remember: false,
    })
    expect(patLogin.status).toBe(200)

    // White label on: the school's sign-in goes by its brand's name, as its pages and header do (decision 0143): the
    // button's look-up and the refusal that points to it.
    await owners.domains.saveBrand({ displayName: 'Acme Learning', brandColor: '#224466' })
    expect(await visitor.schoolSso.forSchool({ slug })).toEqual({ name: 'Acme Learning', slug })
    const branded = await trpcPost(server.baseUrl, 'auth.login', { email: max.email, password: max.password })
    expect(((await branded.json()) as { error: { message: string } }).error.message).toBe(
      `Acme Learning requires its members to sign in with single sign-on: use “Sign in with Acme Learning”. If you cannot sign in there, ask the school’s owner (${owner.email}) to remove you from its team.`,
    )

    // The owner releases Max (removes him from the team): his password signs him in again.
    await owners.schools.remove({ userId: max.id })
    const released = await trpcPost(server.baseUrl, 'auth.login', {
      email: max.email,
      password: max.password,
      remember: false,
    })
    expect(released.status).toBe(200)
  })

  it('holds someone who joins the team at a proven domain at once: their other sessions end, the accepting one too', async () => {
    const owner = await createCreator(db(), { plan: 'enterprise' })
    const { caller: owners, session: ownersSession } = await ownerCaller(owner)
    const { slug, name } = (await owners.schoolSso.save(settings('gamma.test', true))).school
    expect((await prove(owners, 'gamma.test')).status).toBe('verified')
    const gus = await createUser(db(), { email: 'gus@gamma.test' })
    const ida = await createUser(db(), { email: 'ida@personal.test' })
    await owners.schools.invite({ email: gus.email, role: 'support' })
    await owners.schools.invite({ email: ida.email, role: 'support' })
    const tokenFor = async (email: string) => {
      const mail = await db()
        .selectFrom('mail_outbox')
        .select('text_body')
        .where('to_address', '=', email)
        .orderBy('created_at', 'desc')
        .executeTakeFirstOrThrow()
      return /school-invite\?token=([a-z0-9]+)/.exec(mail.text_body)?.[1] ?? ''
    }

    // Gus has a password session on another device, and accepts in this one.
    await createSessionToken(db(), gus.id)
    const accepting = await callerAs(db(), gus)
    expect(await sessionsOf(gus)).toHaveLength(2)
    const joined = await accepting.schools.acceptInvitation({ token: await tokenFor(gus.email) })
    // Both ended with the join; the page is told to go on to the school's sign-in.
    expect(joined.signInWith).toEqual({ name, slug })
    expect(await sessionsOf(gus)).toEqual([])
    expect(await sessionsOf(owner)).toContain(ownersSession.id)
    const password = await trpcPost(server.baseUrl, 'auth.login', {
      email: gus.email,
      password: gus.password,
      remember: false,
    })
    expect(password.status).toBe(403)

    // Ida's address is her own, not the school's to govern: she joins and keeps her sessions.
    const idas = await callerAs(db(), ida)
    expect((await idas.schools.acceptInvitation({ token: await tokenFor(ida.email) })).signInWith).toBeNull()
    expect(await sessionsOf(ida)).toHaveLength(1)
  })

  it('keeps the address it vouches for, and holds a member who moves to its domain (decision 0157)', async () => {
    const owner = await createCreator(db(), { plan: 'enterprise' })
    const { caller: owners } = await ownerCaller(owner)
    const { name } = (await owners.schoolSso.save(settings('vouch.test', true))).school
    expect((await prove(owners, 'vouch.test')).status).toBe('verified')

    // Held: the school's sign-in gives the address, so it is not changed here (no link is mailed anywhere).
    const lee = await member(owner, 'lee@vouch.test')
    const lees = await callerAs(db(), lee)
    expect((await lees.profile.emailChange()).refusal).toBe(EMAIL_CHANGE_MESSAGES.managed(name))
    await expect(
      lees.profile.requestEmailChange({ newEmail: 'lee@personal.test', password: lee.password }),
    ).rejects.toThrow(EMAIL_CHANGE_MESSAGES.managed(name))
    // Nor by support for them (decision 0158): the customer page says why, and the procedure refuses.
    const admins = await callerAs(db(), await createUser(db(), { role: 'admin' }))
    expect((await admins.admin.customers.find({ customer: lee.email }))?.emailChange.refusal).toBe(
      EMAIL_CHANGE_MESSAGES.managed(name),
    )
    await expect(
      admins.admin.customers.startEmailChange({ customerId: lee.id, newEmail: 'lee@personal.test' }),
    ).rejects.toThrow(EMAIL_CHANGE_MESSAGES.managed(name))
    expect(await latestMailTo(db(), 'lee@personal.test')).toBeUndefined()

    // A member at a personal address may move to the school's domain; from then on the school holds them, and the
    // sessions they made with the password end, as when the hold starts any other way.
    const sam = await member(owner, 'sam@home.test')
    const sams = await callerAs(db(), sam)
    expect((await sams.profile.emailChange()).refusal).toBeNull()
    await sams.profile.requestEmailChange({ newEmail: 'sam@vouch.test', password: sam.password })
    const link = (await latestMailTo(db(), 'sam@vouch.test', 'change_email'))?.text_body ?? ''
    const token = /change-email\?token=([a-z0-9]+)/.exec(link)?.[1] as string
    expect((await sessionsOf(sam)).length).toBeGreaterThan(0)
    const moved = await (await callerAs(db(), null)).profile.confirmEmailChange({ token })
    expect(moved.message).toBe(EMAIL_CHANGE_MESSAGES.done('sam@vouch.test') + EMAIL_CHANGE_MESSAGES.nowHeld(name))
    expect(await sessionsOf(sam)).toEqual([])
    const password = await trpcPost(server.baseUrl, 'auth.login', { email: 'sam@vouch.test', password: sam.password })
    expect(password.status).toBe(403)
  })

  it('ends the sessions of the members at a domain proven while it is on, once', async () => {
    const owner = await createCreator(db(), { plan: 'enterprise' })
    const { caller: owners, session: ownersSession } = await ownerCaller(owner)
    await owners.schoolSso.save(settings('beta.test', true))
    const bea = await member(owner, 'bea@beta.test')
    const before = await createSessionToken(db(), bea.id)
    // Not proven yet: the requirement holds nobody, so switching it on ended nothing.
    expect(await sessionsOf(bea)).toEqual([before.session.id])

    expect((await prove(owners, 'beta.test')).status).toBe('verified')
    expect(await sessionsOf(bea)).toEqual([])
    expect(await sessionsOf(owner)).toContain(ownersSession.id)

    // Checked again, still verified: a session made since (through the school) stays.
    const since = await createSessionToken(db(), bea.id)
    expect((await prove(owners, 'beta.test')).status).toBe('verified')
    expect(await sessionsOf(bea)).toEqual([since.session.id])
  })

  // Two connections at once: PGlite has one, so there a join and the switch cannot overlap at all.
  it.runIf(inject('testDb').kind === 'postgres')(
    'holds someone whose join was under way while the owner switched the requirement on (the two serialise)',
    async () => {
      const owner = await createCreator(db(), { plan: 'enterprise' })
      const { caller: owners } = await ownerCaller(owner)
      await owners.schoolSso.save(settings('racing.test', false))
      expect((await prove(owners, 'racing.test')).status).toBe('verified')
      const school = await db()
        .selectFrom('schools')
        .select('id')
        .where('owner_id', '=', owner.id)
        .executeTakeFirstOrThrow()
      const rae = await createUser(db(), { email: 'rae@racing.test' })
      await createSessionToken(db(), rae.id)

      // Rae's acceptance, as SCHOOL_INVITES.join runs it under acceptInvite's team lock: she is on the team, and the
      // requirement (still off in what this transaction sees) holds nobody yet. It commits a moment later.
      let switched: Promise<unknown> = Promise.resolve()
      await db()
        .transaction()
        .execute(async (trx) => {
          await lockTeamSeats(trx, owner.id)
          await putSchoolMember(trx, { schoolId: school.id, userId: rae.id, role: 'support', addedBy: owner.id })
          expect(await endSessionsHeldToSso(trx, school.id, { userId: rae.id })).toEqual([])
          // Meanwhile the owner switches "Require SSO" on.
          switched = owners.schoolSso.save(settings('racing.test', true))
          await new Promise((resolve) => setTimeout(resolve, 500))
        })
      await switched
      // The switch waited for the join to commit, then saw Rae and ended her session; without waiting, neither
      // transaction saw the other's write and her password session outlived the requirement.
      expect(await sessionsOf(rae)).toEqual([])
    },
  )

  /** An owner whose school requires its sign-in at a proven domain, and someone at that domain about to join. */
  async function joinUnderWay(domain: string, joinerEmail: string) {
    const owner = await createCreator(db(), { plan: 'enterprise' })
    const { caller: owners } = await ownerCaller(owner)
    await owners.schoolSso.save(settings(domain, true))
    expect((await prove(owners, domain)).status).toBe('verified')
    const school = await db()
      .selectFrom('schools')
      .select('id')
      .where('owner_id', '=', owner.id)
      .executeTakeFirstOrThrow()
    const joiner = await createUser(db(), { email: joinerEmail })
    /** The join as SCHOOL_INVITES.join runs it under acceptInvite's team lock, its end of the joiner's sessions too. */
    const join = async (trx: DB) => {
      await lockTeamSeats(trx, owner.id)
      await putSchoolMember(trx, { schoolId: school.id, userId: joiner.id, role: 'support', addedBy: owner.id })
      expect(await endSessionsHeldToSso(trx, school.id, { userId: joiner.id })).toEqual([joiner.id])
    }
    return { joiner, join }
  }

  raceIt(
    'refuses a password sign-in made while a join that holds the account is under way (decision 0152)',
    async () => {
      const { joiner, join } = await joinUnderWay('signing.test', 'ned@signing.test')
      const login = await whileHeld(
        db(),
        join,
        () =>
          trpcPost(server.baseUrl, 'auth.login', { email: joiner.email, password: joiner.password, remember: false }),
        { waiters: 1, maxMs: 5000 },
      )
      // The sign-in waited for the join's commit, then saw the hold. Without the account's sign-in lock its check missed
      // the join (not yet committed) and it made its session after the join had ended the others: 200, a session kept.
      expect(login.status).toBe(403)
      expect(await sessionsOf(joiner)).toEqual([])
    },
  )

  raceIt('gives no session for a second-factor code sent while a join ends the pending log-in', async () => {
    const { joiner, join } = await joinUnderWay('coding.test', 'ola@coding.test')
    const { manualKey } = await startTotpEnrolment(db(), joiner, { publicUrl: PUBLIC_URL })
    const recoveryCodes = await confirmTotpEnrolment(
      db(),
      joiner.id,
      generateHOTP(decodeBase32IgnorePadding(manualKey.replace(/ /g, '')), BigInt(totpStep(new Date())), 6),
      { publicUrl: PUBLIC_URL },
    )
    const first = await trpcPost(server.baseUrl, 'auth.login', {
      email: joiner.email,
      password: joiner.password,
      remember: false,
    })
    expect(first.status).toBe(200)
    const pending = cookiePair(setCookieFor(first, PENDING_LOGIN_COOKIE))
    const code = await whileHeld(
      db(),
      join,
      () => trpcPost(server.baseUrl, 'auth.verifyTwoFactor', { code: recoveryCodes[0] }, { cookie: pending }),
      { waiters: 1, maxMs: 5000 },
    )
    // The code step found its pending log-in gone with the join. Without that check it waited on the row the join
    // deleted, deleted nothing, and started the session anyway.
    expect(code.status).toBe(401)
    expect(await sessionsOf(joiner)).toEqual([])
  })

  raceIt('leaves no session from a school-domain hand-off finished while a join holds the account', async () => {
    const { joiner, join } = await joinUnderWay('handing.test', 'ida@handing.test')
    const siteHost = 'learn.handing.test'
    const { verifier, challenge } = newHandoffVerifier()
    const code = await issueHandoff(db(), { userId: joiner.id, siteHost, challenge, remember: false })
    // The other order of decision 0152's hand-off race: the domain's finish (http/sign-in-handoff.ts) has spent the
    // code and made its session, not yet committed, when the join runs; the join must end that session too.
    await whileHeld(
      db(),
      async (trx) => {
        expect(await redeemHandoff(trx, code, siteHost, verifier)).toEqual({ userId: joiner.id, remember: false })
        await startSession(trx, undefined, config, joiner.id, false)
      },
      () => inTransaction(db(), join),
      { waiters: 1, maxMs: 5000 },
    )
    // The join waited on the account's sign-in key, then ended the new session. Without the key it ended the sessions
    // it could see (none yet), waited only to delete the code (already spent) and the hand-off's session was kept.
    expect(await sessionsOf(joiner)).toEqual([])
  })
})

describe('a suspended account (decision 0160)', () => {
  it('is sent back from Google with the suspended code and no session, and signs in once lifted', async () => {
    const finn = await createUser(db(), { email: `finn-${Date.now()}@personal.test` })
    const admins = await callerAs(db(), await createUser(db(), { role: 'admin' }))
    await admins.admin.customers.suspend({ customerId: finn.id, reason: 'Cards reported stolen by their owners.' })
    const refused = await signInWithGoogle(finn.email)
    expect(refused.location).toBe('/auth/callback?error=suspended&via=google')
    expect(refused.session).toBeUndefined()
    expect(await sessionsOf(finn)).toEqual([])

    await admins.admin.customers.liftSuspension({ customerId: finn.id })
    expect((await signInWithGoogle(finn.email)).location).toBe('/auth/callback?redirect=/')
    expect(await sessionsOf(finn)).toHaveLength(1)
  })
})
