// A school's proven SSO e-mail domains after the proof (decision 0091): the periodic re-check ('sso.domain-recheck')
// lapses a proof whose TXT record has been definitely missing or wrong for longer than the grace (a day, over at least
// two checks) — it then links no existing account, makes no new one (identities linked before still sign in), no longer
// holds members to "Require SSO", mails the owner and shows why on /studio/sso — while a DNS failure (SERVFAIL) lapses
// nothing; and one school per domain counts proofs, not
// listings: a school that only listed a domain holds nothing, the first to prove it does, also when two prove at once.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { SsoConsentNeeded } from '../../../src-server/auth/sso-links.ts'
import { putSchoolSso } from '../../../src-server/creators/school-sso.ts'
import { ensureSchool } from '../../../src-server/creators/schools.ts'
import { schoolProvesEmailDomain, syncSsoDomainProofs } from '../../../src-server/creators/sso-domain-proofs.ts'
import { accountForSsoIdentity } from '../../../src-server/flows/school-sso.ts'
import { checkSsoDomain, recheckSsoDomainProofs } from '../../../src-server/flows/sso-domain-proofs.ts'
import { assertSignInAllowed } from '../../../src-server/flows/sso-hold.ts'
import { handlers, type JobDeps, schedules } from '../../../src-server/jobs/registry.ts'
import { defaultAppConfig } from '../../../src-server/kernel/config.ts'
import type { DatabaseHandle } from '../../../src-server/kernel/db.ts'
import { latestMailTo } from '../../../src-server/mail/outbox.ts'
import { createCaller } from '../../../src-server/routers/_app.ts'
import { createContextInner } from '../../../src-server/trpc/context.ts'
import { createCreator } from '../../support/creator-courses.ts'
import { createTestDatabase } from '../../support/db.ts'
import { type LocalDnsServer, startDnsServer } from '../../support/dns-server.ts'
import { createSessionToken, createUser, type TestUser } from '../../support/factories.ts'
import { captureLog } from '../../support/jobs.ts'
import { raceIt } from '../../support/race.ts'

const PUBLIC_URL = 'http://storefront.test'
const HOUR = 60 * 60 * 1000
let database: DatabaseHandle
let dns: LocalDnsServer
const db = () => database.db
const config = { ...defaultAppConfig, publicUrl: PUBLIC_URL, txtLookup: (name: string) => dns.lookup(name) }

beforeAll(async () => {
  database = await createTestDatabase()
  dns = await startDnsServer()
})
afterAll(async () => {
  await dns?.close()
  await database?.close()
})

async function callerFor(user: TestUser) {
  const { session } = await createSessionToken(db(), user.id)
  return createCaller(createContextInner({ db: db(), user, session, config }))
}

/** An Enterprise school whose SSO (on, members required to use it) allows `domains`, as saving does. */
async function schoolWithSso(domains: string[]) {
  const owner = await createCreator(db(), { plan: 'enterprise' })
  const school = await ensureSchool(db(), owner.id)
  await putSchoolSso(db(), {
    schoolId: school.id,
    issuer: 'https://login.example.test',
    clientId: 'client',
    domains,
    enabled: true,
    requireForMembers: true,
    sealedSecret: 'raw:c2VjcmV0',
  })
  await syncSsoDomainProofs(db(), school.id, domains)
  return { owner, school, caller: await callerFor(owner) }
}

async function proofOf(caller: Awaited<ReturnType<typeof callerFor>>, domain: string) {
  const proof = (await caller.schoolSso.domainProofs()).find((row) => row.domain === domain)
  if (!proof) throw new Error(`${domain} is not listed`)
  return proof
}

/** Publishes the domain's record with the school's token and presses Check. */
async function prove(caller: Awaited<ReturnType<typeof callerFor>>, domain: string) {
  const proof = await proofOf(caller, domain)
  dns.records.set(proof.recordName, proof.recordValue)
  return caller.schoolSso.checkDomain({ domain })
}

const recheckAt = (at: Date) => recheckSsoDomainProofs(db(), dns.lookup, PUBLIC_URL, at)

describe('the periodic re-check of proven SSO e-mail domains', () => {
  it('lapses a proof whose record is gone for over a day — never for a DNS failure — and tells the owner', async () => {
    const { owner, school, caller } = await schoolWithSso(['lapse.test', 'flaky.test', 'back.test'])
    for (const domain of ['lapse.test', 'flaky.test', 'back.test']) {
      expect((await prove(caller, domain)).status).toBe('verified')
    }
    const t0 = new Date()
    const at = (hours: number) => new Date(t0.getTime() + hours * HOUR)
    // A member with a lapse.test address, held to the school's sign-in; an account the sign-in links by itself.
    const member = await createUser(db(), { email: 'mia@lapse.test' })
    await db()
      .insertInto('school_members')
      .values({ school_id: school.id, user_id: member.id, role: 'instructor', added_by: owner.id })
      .execute()
    await expect(assertSignInAllowed(db(), member.id)).rejects.toThrow(
      /requires its members to sign in with single sign-on/,
    )
    const settings = {
      schoolId: school.id,
      issuer: 'https://login.example.test',
      clientId: 'client',
      domains: ['lapse.test', 'flaky.test', 'back.test'],
      enabled: true,
      requireForMembers: true,
    }
    const identity = (email: string, subject: string) => ({
      issuer: settings.issuer,
      subject,
      email,
      emailVerified: true,
      firstName: 'A',
      lastName: 'B',
    })
    const linkedEarly = await createUser(db(), { email: 'early@lapse.test' })
    expect((await accountForSsoIdentity(db(), settings, identity('early@lapse.test', 'early'))).id).toBe(linkedEarly.id)

    // 6 hours on: lapse.test's and back.test's records are gone, flaky.test's server fails.
    dns.records.delete('_skillforge-sso.lapse.test')
    dns.records.delete('_skillforge-sso.back.test')
    dns.failing.add('_skillforge-sso.flaky.test')
    expect(await recheckAt(at(6))).toMatchObject({ checked: 3, failing: 2, failed: 1, lapsed: 0 })
    const statuses = async () =>
      Object.fromEntries((await caller.schoolSso.domainProofs()).map((row) => [row.domain, row.status]))
    expect(await statuses()).toEqual({ 'lapse.test': 'failing', 'flaky.test': 'verified', 'back.test': 'failing' })
    const failing = await proofOf(caller, 'lapse.test')
    expect(failing.message).toMatch(/Verified, but at risk: since \d{4}-\d\d-\d\d no TXT record was found/)
    // Still proven within the grace: one missing answer (a DNS change in flight) takes nothing away.
    expect(await schoolProvesEmailDomain(db(), school.id, 'lapse.test')).toBe(true)
    const madeInGrace = await accountForSsoIdentity(db(), settings, identity('grace@lapse.test', 'grace'))
    expect(madeInGrace.created).toBe(true)

    // 12 hours: back.test's record is back: its failing run ends.
    const back = await proofOf(caller, 'back.test')
    dns.records.set(back.recordName, back.recordValue)
    expect(await recheckAt(at(12))).toMatchObject({ checked: 3, verified: 1, failing: 1, failed: 1 })
    // 40 hours: lapse.test's lookup fails (SERVFAIL): that is no answer, so its proof does not lapse.
    dns.records.delete('_skillforge-sso.back.test')
    dns.failing.add('_skillforge-sso.lapse.test')
    expect(await recheckAt(at(40))).toMatchObject({ checked: 3, failing: 1, failed: 2, lapsed: 0 })
    expect(await statuses()).toEqual({ 'lapse.test': 'failing', 'flaky.test': 'verified', 'back.test': 'failing' })
    expect(await latestMailTo(db(), owner.email, 'sso-domain-lapsed')).toBeUndefined()

    // 46 hours: lapse.test's record is definitely missing again, 40 hours after the first miss: the proof lapses.
    // back.test's new run started at 40 hours; flaky.test has failed to answer for 40 hours and stays verified.
    dns.failing.delete('_skillforge-sso.lapse.test')
    expect(await recheckAt(at(46))).toMatchObject({ checked: 3, lapsed: 1, failing: 1, failed: 1 })
    expect(await statuses()).toEqual({ 'lapse.test': 'lapsed', 'flaky.test': 'verified', 'back.test': 'failing' })
    const lapsed = await proofOf(caller, 'lapse.test')
    expect(lapsed.message).toMatch(/No longer verified since \d{4}-\d\d-\d\d: no TXT record was found/)
    expect(lapsed.message).toContain('“Require SSO” no longer applies')
    expect(lapsed.recordValue).toMatch(/^sf-/)
    expect(await schoolProvesEmailDomain(db(), school.id, 'lapse.test')).toBe(false)
    // The owner is told, with the record to publish again.
    const mail = await latestMailTo(db(), owner.email, 'sso-domain-lapsed')
    expect(mail?.subject).toContain('lapse.test is no longer verified')
    expect(mail?.text_body).toContain(lapsed.recordValue)
    expect(mail?.text_body).toContain(`${PUBLIC_URL}/studio/sso`)
    // "Require SSO" no longer holds the member; an existing account is no longer linked by the provider alone.
    await expect(assertSignInAllowed(db(), member.id)).resolves.toBeUndefined()
    await createUser(db(), { email: 'late@lapse.test' })
    await expect(accountForSsoIdentity(db(), settings, identity('late@lapse.test', 'late'))).rejects.toBeInstanceOf(
      SsoConsentNeeded,
    )
    // Nor is a new account made there; identities linked while the school held the domain still sign in.
    await expect(accountForSsoIdentity(db(), settings, identity('new@lapse.test', 'new'))).rejects.toThrow(
      'this school has not verified the e-mail domain lapse.test yet',
    )
    expect(await db().selectFrom('users').select('id').where('email', '=', 'new@lapse.test').execute()).toEqual([])
    expect(await db().selectFrom('school_sso_links').select('user_id').where('subject', '=', 'new').execute()).toEqual(
      [],
    )
    expect(await accountForSsoIdentity(db(), settings, identity('early@lapse.test', 'early'))).toEqual({
      id: linkedEarly.id,
      created: false,
    })
    expect(await accountForSsoIdentity(db(), settings, identity('grace@lapse.test', 'grace'))).toEqual({
      id: madeInGrace.id,
      created: false,
    })
    expect(mail?.text_body).toContain('new learners at lapse.test cannot join through your sign-in')
    // A lapsed proof is not re-checked by the job (nothing to lapse); the owner checks it again once published.
    expect(await recheckAt(at(60))).toMatchObject({ checked: 2 })
    expect((await prove(caller, 'lapse.test')).status).toBe('verified')
    await expect(assertSignInAllowed(db(), member.id)).rejects.toThrow(/requires/)
  })

  it('is scheduled every 6 hours and runs as the job, through the configured DNS servers', async () => {
    const schedule = schedules.find((one) => one.name === 'sso.domain-recheck')
    expect(schedule?.cron).toBe('29 */6 * * *')
    const { school, caller } = await schoolWithSso(['job.test'])
    await prove(caller, 'job.test')
    const stale = new Date(Date.now() - 6 * HOUR)
    await db()
      .updateTable('school_sso_domain_proofs')
      .set({ checked_at: stale })
      .where('school_id', '=', school.id)
      .execute()
    dns.records.delete('_skillforge-sso.job.test')
    const { log, entries } = captureLog()
    const work = handlers({ db: db(), log, txtLookup: dns.lookup } as unknown as JobDeps)
    await work['sso.domain-recheck']({ id: 'job', name: 'sso.domain-recheck', data: {} } as never)
    expect(entries.some((entry) => entry.message === 're-checked SSO e-mail domain proofs')).toBe(true)
    expect((await proofOf(caller, 'job.test')).status).toBe('failing')
  })
})

describe('one school per e-mail domain counts proofs, not listings', () => {
  it('lets the real owner list and prove a domain a squatter listed first; the squatter’s proof is then refused', async () => {
    const squatter = await schoolWithSso(['squat.test'])
    // Listing is allowed: the squatter's unproven listing holds nothing.
    const real = await schoolWithSso([])
    await real.caller.schoolSso.save({
      issuer: 'https://login.example.test',
      clientId: 'client',
      clientSecret: 'secret',
      domains: 'squat.test',
      enabled: false,
      requireForMembers: false,
    })
    expect((await prove(real.caller, 'squat.test')).status).toBe('verified')
    // The squatter cannot prove it now, with a clear reason, even with the record published as its own.
    const own = await proofOf(squatter.caller, 'squat.test')
    dns.records.set(own.recordName, own.recordValue)
    await expect(squatter.caller.schoolSso.checkDomain({ domain: 'squat.test' })).rejects.toMatchObject({
      code: 'CONFLICT',
      message: expect.stringMatching(/Another school has proven squat\.test by DNS/),
    })
    expect(await schoolProvesEmailDomain(db(), squatter.school.id, 'squat.test')).toBe(false)
    // Its provider signs in no squat.test address, not even a new account; a third school cannot list it.
    await expect(
      accountForSsoIdentity(
        db(),
        {
          schoolId: squatter.school.id,
          issuer: 'https://login.example.test',
          clientId: 'client',
          domains: ['squat.test'],
          enabled: true,
          requireForMembers: true,
        },
        {
          issuer: 'https://login.example.test',
          subject: 'new',
          email: 'new@squat.test',
          emailVerified: true,
          firstName: '',
          lastName: '',
        },
      ),
    ).rejects.toThrow(/sign in through another school/)
    const third = await schoolWithSso([])
    await expect(
      third.caller.schoolSso.save({
        issuer: 'https://login.example.test',
        clientId: 'client',
        clientSecret: 'secret',
        domains: 'squat.test',
        enabled: false,
        requireForMembers: false,
      }),
    ).rejects.toThrow(/Another school has proven squat\.test/)
  })

  raceIt('two schools proving one domain at once: one proves it, the other is refused', async () => {
    const first = await schoolWithSso(['race.test'])
    const second = await schoolWithSso(['race.test'])
    const tokens = await Promise.all(
      [first, second].map(async ({ caller }) => (await proofOf(caller, 'race.test')).recordValue),
    )
    // Both lookups answer only once both checks have passed the "proven elsewhere" read: a true race.
    let arrived = 0
    let release: () => void = () => {}
    const bothArrived = new Promise<void>((resolve) => (release = resolve))
    const lookup = async () => {
      if (++arrived === 2) release()
      await bothArrived
      return tokens.map((token) => [token])
    }
    const results = await Promise.allSettled(
      [first, second].map(({ owner }) => checkSsoDomain(db(), owner.id, 'race.test', lookup, PUBLIC_URL)),
    )
    expect(results.map((result) => result.status).sort()).toEqual(['fulfilled', 'rejected'])
    const refused = results.find((result) => result.status === 'rejected')
    expect(String((refused as PromiseRejectedResult).reason.message)).toMatch(/Another school has proven race\.test/)
    const verified = await db()
      .selectFrom('school_sso_domain_proofs')
      .select('school_id')
      .where('domain', '=', 'race.test')
      .where('verified_at', 'is not', null)
      .execute()
    expect(verified).toHaveLength(1)
  })
})
