// A school's verified custom domain is re-checked (decision 0063, 2026-12-13, by decision 0091's rule): the periodic
// re-check ('domains.recheck') and the owner's "Check now" lapse a domain whose TXT record has been definitely missing
// or wrong for over a day (over at least two checks), never for a DNS failure (SERVFAIL); a passing check ends a
// failing run. A lapse stops the host routing and Caddy's ask at once (the 30 s host cache is cleared), ends the
// sessions made on the domain, mails the owner and shows why on /studio/domain; the owner's change or removal of the
// hostname does the same to the old name, without the mail. Real server, local DNS server.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createSession, SESSION_COOKIE } from '../../../src-server/auth/session.ts'
import { recheckSchoolDomains } from '../../../src-server/flows/school-domain.ts'
import { DOMAIN_LAPSED_MAIL_KIND } from '../../../src-server/flows/school-domain-lapse.ts'
import { handlers, type JobDeps, schedules } from '../../../src-server/jobs/registry.ts'
import { defaultAppConfig } from '../../../src-server/kernel/config.ts'
import type { DatabaseHandle } from '../../../src-server/kernel/db.ts'
import { latestMailTo } from '../../../src-server/mail/outbox.ts'
import { createCaller } from '../../../src-server/routers/_app.ts'
import { createContextInner } from '../../../src-server/trpc/context.ts'
import { createCreator } from '../../support/creator-courses.ts'
import { createTestDatabase } from '../../support/db.ts'
import { type LocalDnsServer, startDnsServer } from '../../support/dns-server.ts'
import { createUser, type TestUser } from '../../support/factories.ts'
import { startTestServer, type TestServer } from '../../support/http.ts'
import { captureLog } from '../../support/jobs.ts'

const PUBLIC_URL = 'http://storefront.test'
const HOUR = 60 * 60 * 1000
let database: DatabaseHandle
let server: TestServer
let dns: LocalDnsServer
const db = () => database.db
const app = () => server.server.app

beforeAll(async () => {
  dns = await startDnsServer()
  database = await createTestDatabase()
  server = await startTestServer(database.db, { env: { DNS_SERVERS: `127.0.0.1:${dns.port}` } })
})
afterAll(async () => {
  await server?.stop()
  await database?.close()
  await dns?.close()
})

const config = { ...defaultAppConfig, publicUrl: PUBLIC_URL, txtLookup: (name: string) => dns.lookup(name) }

async function callerFor(user: TestUser) {
  const { session } = await createSession(db(), user.id)
  return createCaller(createContextInner({ db: db(), user, session, config }))
}

/** A Pro school whose domain is verified by its TXT record and the owner's "Check now". */
async function verifiedSchool(hostname: string) {
  const owner = await createCreator(db(), { plan: 'pro' })
  const caller = await callerFor(owner)
  const slug = hostname.split('.')[0] ?? 'school'
  await caller.schools.saveSettings({ name: `School ${slug}`, slug: `school-${slug}` })
  await caller.domains.add({ hostname })
  const domain = (await caller.domains.mine()).domain
  if (!domain) throw new Error('no domain')
  dns.records.set(domain.recordName, domain.recordValue)
  expect(await caller.domains.check()).toMatchObject({ verified: true, status: 'verified' })
  return { owner, caller, slug: `school-${slug}`, recordName: domain.recordName, token: domain.recordValue }
}

type School = Awaited<ReturnType<typeof verifiedSchool>>

const recheckAt = (at: Date) => recheckSchoolDomains(db(), dns.lookup, PUBLIC_URL, at)
const statusOf = async (school: School) => (await school.caller.domains.mine()).domain?.status
/** Where the domain's home goes: the school's page while the domain serves it. */
const homeOn = async (host: string) => {
  const home = await app().inject({ url: '/', headers: { host } })
  return home.statusCode === 302 ? home.headers.location : home.statusCode
}
/** Caddy's on-demand TLS ask. */
const askFor = async (host: string) =>
  (await app().inject({ url: `/internal/domain-allowed?domain=${host}` })).statusCode
/** Whether a session cookie still signs its user in under a Host. */
const signedInOn = async (host: string, token: string, email: string) =>
  (await app().inject({ url: '/trpc/auth.me', headers: { host, cookie: `${SESSION_COOKIE}=${token}` } })).body.includes(
    email,
  )

describe('the periodic re-check of verified custom domains', () => {
  it('lapses a domain whose record is gone for over a day — never for a DNS failure — and ends what it served', async () => {
    // The other tests' domains (the order is shuffled) stay out of these runs' counts.
    await db()
      .updateTable('school_domains')
      .set({ checked_at: new Date(Date.now() + 1000 * HOUR) })
      .execute()
    const lapse = await verifiedSchool('lapse.rechecked.test')
    const flaky = await verifiedSchool('flaky.rechecked.test')
    const back = await verifiedSchool('back.rechecked.test')
    const t0 = new Date()
    const at = (hours: number) => new Date(t0.getTime() + hours * HOUR)
    // A learner signed in on the domain, the owner on the platform's host, a learner on another school's domain.
    const learner = await createUser(db())
    const onDomain = await createSession(db(), learner.id, true, t0, { siteHost: 'lapse.rechecked.test' })
    const onPlatform = await createSession(db(), lapse.owner.id, true, t0)
    const onOther = await createSession(db(), learner.id, true, t0, { siteHost: 'back.rechecked.test' })
    expect(await signedInOn('lapse.rechecked.test', onDomain.token, learner.email)).toBe(true)

    // 6 hours on: every record is there: each check passes.
    expect(await recheckAt(at(6))).toEqual({ checked: 3, verified: 3, failing: 0, lapsed: 0, failed: 0 })
    // Not due again within 5 hours.
    expect(await recheckAt(at(10))).toMatchObject({ checked: 0 })

    // 12 hours: lapse's and back's records are gone, flaky's DNS server fails.
    dns.records.delete(lapse.recordName)
    dns.records.delete(back.recordName)
    dns.failing.add(flaky.recordName)
    expect(await recheckAt(at(12))).toEqual({ checked: 3, verified: 0, failing: 2, lapsed: 0, failed: 1 })
    expect([await statusOf(lapse), await statusOf(flaky), await statusOf(back)]).toEqual([
      'failing',
      'verified',
      'failing',
    ])
    const failing = (await lapse.caller.domains.mine()).domain
    expect(failing?.message).toMatch(/^Verified, but at risk: since \d{4}-\d\d-\d\d no TXT record was found at /)
    // Still the school's within the grace: one missing answer (a DNS change in flight) takes nothing away.
    expect(await homeOn('lapse.rechecked.test')).toBe(`/s/${lapse.slug}`)
    expect(await askFor('lapse.rechecked.test')).toBe(200)

    // 18 hours: back's record is back: its failing run ends.
    dns.records.set(back.recordName, back.token)
    expect(await recheckAt(at(18))).toMatchObject({ checked: 3, verified: 1, failing: 1, failed: 1 })
    expect(await statusOf(back)).toBe('verified')

    // 40 hours: lapse's lookup fails (SERVFAIL): no answer about the record, so nothing lapses.
    dns.failing.add(lapse.recordName)
    expect(await recheckAt(at(40))).toMatchObject({ checked: 3, verified: 1, failed: 2, lapsed: 0 })
    expect(await statusOf(lapse)).toBe('failing')
    expect(await latestMailTo(db(), lapse.owner.email, DOMAIN_LAPSED_MAIL_KIND)).toBeUndefined()
    // The host lookup is cached (30 s) from here on: the lapse must clear it.
    expect(await homeOn('lapse.rechecked.test')).toBe(`/s/${lapse.slug}`)
    expect(await askFor('lapse.rechecked.test')).toBe(200)

    // 46 hours: lapse's record is definitely missing again, 34 hours after the first miss: the domain lapses. flaky
    // has not answered for 34 hours and stays verified.
    dns.failing.delete(lapse.recordName)
    expect(await recheckAt(at(46))).toMatchObject({ checked: 3, lapsed: 1, verified: 1, failed: 1 })
    expect([await statusOf(lapse), await statusOf(flaky), await statusOf(back)]).toEqual([
      'lapsed',
      'verified',
      'verified',
    ])
    // The domain no longer serves the school, at once, nor gets a certificate.
    expect(await homeOn('lapse.rechecked.test')).not.toBe(`/s/${lapse.slug}`)
    expect(await askFor('lapse.rechecked.test')).toBe(404)
    expect(await homeOn('back.rechecked.test')).toBe(`/s/${back.slug}`)
    // The sessions made on it are ended; the owner's on the platform and the one on another school's domain stay.
    expect(await signedInOn('lapse.rechecked.test', onDomain.token, learner.email)).toBe(false)
    const sessions = await db().selectFrom('sessions').select('id').where('user_id', '=', learner.id).execute()
    expect(sessions.map((row) => row.id)).toEqual([onOther.session.id])
    expect(await signedInOn('127.0.0.1', onPlatform.token, lapse.owner.email)).toBe(true)
    expect(await signedInOn('back.rechecked.test', onOther.token, learner.email)).toBe(true)
    // The owner is told, with the record to publish again; the page says why and how to restore it.
    const mail = await latestMailTo(db(), lapse.owner.email, DOMAIN_LAPSED_MAIL_KIND)
    expect(mail?.subject).toBe('lapse.rechecked.test no longer serves School lapse')
    expect(mail?.text_body).toContain(`value: ${lapse.token}`)
    expect(mail?.text_body).toContain(`${PUBLIC_URL}/studio/domain`)
    const lapsed = (await lapse.caller.domains.mine()).domain
    expect(lapsed?.message).toMatch(/^No longer verified since \d{4}-\d\d-\d\d: no TXT record was found at /)
    expect(lapsed?.message).toContain('publish the TXT record below, then press Check now')
    expect(lapsed?.recordValue).toBe(lapse.token)

    // A lapsed domain is not re-checked by the job; the owner publishes the record and checks it again.
    expect(await recheckAt(at(60))).toMatchObject({ checked: 2 })
    dns.records.set(lapse.recordName, lapse.token)
    expect(await lapse.caller.domains.check()).toMatchObject({ verified: true, status: 'verified' })
    expect(await homeOn('lapse.rechecked.test')).toBe(`/s/${lapse.slug}`)
  })

  it('changing or removing the domain ends the sessions made on the old name, which stops serving at once', async () => {
    const school = await verifiedSchool('moved.rechecked.test')
    const learner = await createUser(db())
    const onOld = await createSession(db(), learner.id, true, new Date(), { siteHost: 'moved.rechecked.test' })
    const onPlatform = await createSession(db(), learner.id)
    // The host lookup is cached (30 s) from here on: the change must clear it.
    expect(await homeOn('moved.rechecked.test')).toBe(`/s/${school.slug}`)
    expect(await askFor('moved.rechecked.test')).toBe(200)

    // A new hostname replaces the verified one: the old name serves nothing and keeps no session.
    await school.caller.domains.add({ hostname: 'new.moved.test' })
    expect(await signedInOn('moved.rechecked.test', onOld.token, learner.email)).toBe(false)
    expect(await homeOn('moved.rechecked.test')).not.toBe(`/s/${school.slug}`)
    expect(await askFor('moved.rechecked.test')).toBe(404)
    expect(await signedInOn('127.0.0.1', onPlatform.token, learner.email)).toBe(true)

    // The new name, once verified, is removed: the same.
    const domain = (await school.caller.domains.mine()).domain
    if (!domain) throw new Error('no domain')
    dns.records.set(domain.recordName, domain.recordValue)
    expect(await school.caller.domains.check()).toMatchObject({ verified: true })
    const onNew = await createSession(db(), learner.id, true, new Date(), { siteHost: 'new.moved.test' })
    expect(await homeOn('new.moved.test')).toBe(`/s/${school.slug}`)
    expect(await school.caller.domains.remove()).toEqual({ removed: true })
    expect(await signedInOn('new.moved.test', onNew.token, learner.email)).toBe(false)
    expect(await homeOn('new.moved.test')).not.toBe(`/s/${school.slug}`)
    expect(await askFor('new.moved.test')).toBe(404)
    expect(await signedInOn('127.0.0.1', onPlatform.token, learner.email)).toBe(true)
  })

  it('the owner’s “Check now” follows the same rule', async () => {
    const school = await verifiedSchool('checked.rechecked.test')
    const learner = await createUser(db())
    const onDomain = await createSession(db(), learner.id, true, new Date(), { siteHost: 'checked.rechecked.test' })
    const backdateRun = (hours: number) =>
      db()
        .updateTable('school_domains')
        .set({ failing_since: new Date(Date.now() - hours * HOUR) })
        .where('hostname', '=', 'checked.rechecked.test')
        .execute()
    // A wrong value: a definite failure starts the run; the domain stays verified and served.
    dns.records.set(school.recordName, 'sf-someone-else')
    expect(await school.caller.domains.check()).toMatchObject({ verified: true, status: 'failing' })
    expect(await homeOn('checked.rechecked.test')).toBe(`/s/${school.slug}`)
    // A passing check ends the run.
    dns.records.set(school.recordName, school.token)
    expect(await school.caller.domains.check()).toMatchObject({ verified: true, status: 'verified' })
    // Wrong again, a day and more after a run started: but a DNS failure decides nothing…
    dns.records.set(school.recordName, 'sf-someone-else')
    expect(await school.caller.domains.check()).toMatchObject({ status: 'failing' })
    await backdateRun(25)
    dns.failing.add(school.recordName)
    expect(await school.caller.domains.check()).toMatchObject({ verified: true, status: 'failing' })
    expect(await homeOn('checked.rechecked.test')).toBe(`/s/${school.slug}`)
    // …while a definite failure lapses it, with everything a lapse does.
    dns.failing.delete(school.recordName)
    const checked = await school.caller.domains.check()
    expect(checked).toMatchObject({ verified: false, status: 'lapsed' })
    expect(checked.message).toMatch(/has TXT records, but none holds this value for more than a day/)
    expect(await homeOn('checked.rechecked.test')).not.toBe(`/s/${school.slug}`)
    expect(await askFor('checked.rechecked.test')).toBe(404)
    expect(await signedInOn('checked.rechecked.test', onDomain.token, learner.email)).toBe(false)
    expect(await latestMailTo(db(), school.owner.email, DOMAIN_LAPSED_MAIL_KIND)).toBeDefined()
    // A DNS failure after the lapse keeps the reason known; the record back restores it.
    dns.failing.add(school.recordName)
    expect((await school.caller.domains.check()).message).toMatch(/the record stayed missing or wrong for more than/)
    dns.failing.delete(school.recordName)
    dns.records.set(school.recordName, school.token)
    expect(await school.caller.domains.check()).toMatchObject({ verified: true, status: 'verified' })
    expect(await askFor('checked.rechecked.test')).toBe(200)
  })

  it('is scheduled every 6 hours, apart from the SSO one, and runs as the job on the configured DNS servers', async () => {
    expect(schedules.find((one) => one.name === 'domains.recheck')?.cron).toBe('29 3-23/6 * * *')
    const school = await verifiedSchool('job.rechecked.test')
    await db()
      .updateTable('school_domains')
      .set({ checked_at: new Date(Date.now() - 6 * HOUR) })
      .where('hostname', '=', 'job.rechecked.test')
      .execute()
    dns.records.delete(school.recordName)
    const { log, entries } = captureLog()
    const work = handlers({ db: db(), log, txtLookup: dns.lookup } as unknown as JobDeps)
    await work['domains.recheck']({ id: 'job', name: 'domains.recheck', data: {} } as never)
    expect(entries.some((entry) => entry.message === 're-checked verified custom domains')).toBe(true)
    expect(await statusOf(school)).toBe('failing')
  })
})
