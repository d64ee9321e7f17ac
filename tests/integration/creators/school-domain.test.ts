// A school's own domain and brand (issue 36, decision 0063) against a real database and the real server: the TXT
// check through a local DNS server (dns2 on 127.0.0.1, the server's DNS_SERVERS), Caddy's `ask` endpoint, host
// routing under the school's Host (its home is its page; cookies stay host-only), the owner and plan checks, and the
// white label: no "SkillForge" left on the school's mails (completion, receipt, gift) and certificate PDF.
import { inflateSync } from 'node:zlib'
import { TRPCError } from '@trpc/server'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createSession, SESSION_COOKIE } from '../../../src-server/auth/session.ts'
import { certificateView } from '../../../src-server/flows/certificates.ts'
import { refundOrder } from '../../../src-server/flows/refunds.ts'
import { checkSchoolDomain } from '../../../src-server/flows/school-domain.ts'
import type { DatabaseHandle } from '../../../src-server/kernel/db.ts'
import { certificatePdf } from '../../../src-server/learning/certificate-pdf.ts'
import { deliverOutboxMail } from '../../../src-server/mail/delivery.ts'
import { printedMail } from '../../../src-server/mail/printed.ts'
import type { MailMessage } from '../../../src-server/mail/transport.ts'
import { PAYMENT_MESSAGES } from '../../../src-shared/cart.ts'
import { createCreator, createCreatorCourse, lapsePlan } from '../../support/creator-courses.ts'
import { createTestDatabase } from '../../support/db.ts'
import { type LocalDnsServer, startDnsServer } from '../../support/dns-server.ts'
import { sell } from '../../support/earnings.ts'
import { callerAs, createUser } from '../../support/factories.ts'
import { startTestServer, type TestServer } from '../../support/http.ts'
import { captureLog } from '../../support/jobs.ts'
import { buyerOfCourse, lessonsOf } from '../../support/learning.ts'
import { liveSessionRow } from '../../support/live.ts'

let dns: LocalDnsServer
let records: Map<string, string>
let dnsPort = 0

beforeAll(async () => {
  dns = await startDnsServer()
  records = dns.records
  dnsPort = dns.port
})
afterAll(async () => {
  await dns?.close()
})

let database: DatabaseHandle
let server: TestServer
beforeAll(async () => {
  database = await createTestDatabase()
  server = await startTestServer(database.db, { env: { DNS_SERVERS: `127.0.0.1:${dnsPort}` } })
})
afterAll(async () => {
  await server?.stop()
  await database?.close()
})
const db = () => database.db
const app = () => server.server.app

async function failure(promise: Promise<unknown>) {
  try {
    await promise
  } catch (error) {
    if (error instanceof TRPCError) return `${error.code}: ${error.message}`
    throw error
  }
  return 'OK'
}

/** The real server's tRPC over HTTP, as the owner, under a Host. */
async function trpc(path: string, input: unknown, cookie: string, host = '127.0.0.1') {
  const response = await app().inject({
    method: 'POST',
    url: `/trpc/${path}`,
    headers: { host, origin: `http://${host}`, cookie, 'content-type': 'application/json' },
    payload: JSON.stringify(input ?? {}),
  })
  return { status: response.statusCode, body: response.json() as { result?: { data: unknown } } }
}

describe('a school’s own domain', () => {
  it('verifies by TXT record through the configured DNS server, then serves the school under its Host', async () => {
    expect(dnsPort).toBeGreaterThan(0)
    const owner = await createCreator(db(), { plan: 'pro' })
    const asOwner = await callerAs(db(), owner)
    await asOwner.schools.saveSettings({ name: 'Cora Academy', slug: 'cora-academy' })
    // The HTTP path: the server's own lookup (DNS_SERVERS = the local dns2 server).
    const loginOn = async (host: string) => {
      const login = await app().inject({
        method: 'POST',
        url: '/trpc/auth.login',
        headers: { host, origin: `http://${host}`, 'content-type': 'application/json' },
        payload: JSON.stringify({ email: owner.email, password: owner.password }),
      })
      expect(login.statusCode).toBe(200)
      const setCookie = String(login.headers['set-cookie'] ?? '')
      // Host-only: no Domain attribute, so the session belongs to the host it was set on.
      expect(setCookie).not.toMatch(/domain=/i)
      return setCookie.split(';')[0] ?? ''
    }
    const schoolCookie = await loginOn('academy.example.test')
    const cookie = await loginOn('127.0.0.1')

    expect((await trpc('domains.add', { hostname: 'https://academy.example.test' }, cookie)).status).toBe(400)
    expect((await trpc('domains.add', { hostname: 'Academy.Example.test' }, cookie)).status).toBe(200)
    const panel = await asOwner.domains.mine()
    expect(panel.domain?.recordName).toBe('_skillforge-verify.academy.example.test')
    const token = panel.domain?.recordValue ?? ''
    expect(token).toMatch(/^sf-/)

    // Not yet served, and Caddy is told no.
    const allowed = (domain: string) => app().inject({ url: `/internal/domain-allowed?domain=${domain}` })
    expect((await allowed('academy.example.test')).statusCode).toBe(404)
    expect((await app().inject({ url: '/', headers: { host: 'academy.example.test' } })).statusCode).not.toBe(302)

    // A missing record, then a wrong token: not verified.
    const check = async () => (await trpc('domains.check', undefined, cookie)).body.result?.data
    expect(await check()).toMatchObject({ verified: false, status: 'missing' })
    records.set('_skillforge-verify.academy.example.test', 'sf-not-the-token')
    expect(await check()).toMatchObject({ verified: false, status: 'mismatch' })
    expect((await allowed('academy.example.test')).statusCode).toBe(404)
    // The right token: verified.
    records.set('_skillforge-verify.academy.example.test', token)
    expect(await check()).toMatchObject({ verified: true, status: 'verified' })
    expect((await asOwner.domains.mine()).domain?.verifiedAt).not.toBeNull()

    expect((await allowed('academy.example.test')).statusCode).toBe(200)
    expect((await allowed('ACADEMY.example.test.')).statusCode).toBe(200)
    expect((await allowed('other.example.test')).statusCode).toBe(404)
    expect((await allowed('')).statusCode).toBe(404)

    // Host routing: the school's home is its page; other hosts keep the site's home.
    const home = await app().inject({ url: '/?ref=x', headers: { host: 'academy.example.test:4414' } })
    expect(home.statusCode).toBe(302)
    expect(home.headers.location).toBe('/s/cora-academy?ref=x')
    expect((await app().inject({ url: '/', headers: { host: 'unknown.example.test' } })).statusCode).not.toBe(302)
    expect((await app().inject({ url: '/', headers: { host: '127.0.0.1' } })).statusCode).not.toBe(302)
    // The API answers under the school's host with the session made there, and that session is the school domain's
    // alone: its owner controls where the name points, so a token seen there must not open the account on the
    // platform (nor a platform token on the school's domain).
    const me = async (host: string, sessionCookie: string) =>
      (await app().inject({ url: '/trpc/auth.me', headers: { host, cookie: sessionCookie } })).body
    expect(await me('academy.example.test', schoolCookie)).toContain(owner.email)
    expect(await me('127.0.0.1', schoolCookie)).not.toContain(owner.email)
    expect(await me('other.example.test', schoolCookie)).not.toContain(owner.email)
    expect(await me('academy.example.test', cookie)).not.toContain(owner.email)
    expect(await me('127.0.0.1', cookie)).toContain(owner.email)
    // The staff area and the studio live on the platform's host: a school's domain sends them there, and takes no
    // staff password itself.
    for (const path of ['/admin/login', '/admin', '/studio/courses?page=2']) {
      const away = await app().inject({ url: path, headers: { host: 'academy.example.test' } })
      expect([path, away.statusCode, away.headers.location]).toEqual([path, 302, `http://storefront.test${path}`])
    }
    expect((await app().inject({ url: '/admin/login', headers: { host: '127.0.0.1' } })).statusCode).not.toBe(302)
    expect((await app().inject({ url: '/administer', headers: { host: 'academy.example.test' } })).statusCode).not.toBe(
      302,
    )
    // The domain is the school's site (decision 0143): the marketplace's catalogue is the school's page, and the
    // marketplace's own pages (what SkillForge sells, says about itself; another school's page; another creator's
    // course or bundle) open on the marketplace's origin, never under the school's name. Its own course is served.
    const ownCourse = await createCreatorCourse(db(), owner, { status: 'published', title: 'Cora’s Course' })
    const stranger = await createCreator(db(), { plan: 'pro' })
    await (await callerAs(db(), stranger)).schools.saveSettings({ name: 'Elsewhere', slug: 'elsewhere-school' })
    const strangersCourse = await createCreatorCourse(db(), stranger, { status: 'published' })
    // A certificate of each course: its page is the school's only for the school's course.
    const certificateOf = async (courseId: string) =>
      (
        await db()
          .insertInto('certificates')
          .values({
            user_id: stranger.id,
            course_id: courseId,
            learner_name: 'Cert Holder',
            course_title: 'A course',
            instructor_name: 'An instructor',
          })
          .returning('id')
          .executeTakeFirstOrThrow()
      ).id
    const ownCertificate = await certificateOf(ownCourse.id)
    const strangersCertificate = await certificateOf(strangersCourse.id)
    const goesTo = async (path: string, host = 'academy.example.test') => {
      const answer = await app().inject({ url: path, headers: { host } })
      // (This server has no built client: a page served is its 404 here, what matters is that it is not sent away.)
      return answer.statusCode === 302 ? answer.headers.location : 'served'
    }
    for (const path of ['/courses', '/courses?search=seo', '/courses/category/business']) {
      expect([path, await goesTo(path)]).toEqual([path, '/s/cora-academy'])
    }
    for (const path of [
      '/pricing',
      '/services',
      '/about',
      '/teach/apply',
      '/contact',
      '/instructors/someone',
      '/s/elsewhere-school',
      `/courses/${strangersCourse.id}?from=search`,
      // The player of a course that is not the school's is the marketplace's too (decision 0150).
      `/learn/${strangersCourse.id}`,
      `/learn/${strangersCourse.id}/a-lesson`,
      `/account/messages/${strangersCourse.id}`,
      `/certificates/${strangersCertificate}`,
      '/certificates/no-such-certificate',
      '/account/premium',
      '/account/membership',
      '/bundles/someone-elses-bundle',
    ]) {
      expect([path, await goesTo(path)]).toEqual([path, `http://storefront.test${path}`])
    }
    await db()
      .insertInto('bundles')
      .values({ slug: 'cora-pack', title: 'Cora pack', owner_id: owner.id, currency: 'USD', price_minor: 5000 })
      .execute()
    for (const path of [
      `/courses/${ownCourse.id}`,
      `/learn/${ownCourse.id}`,
      `/learn/${ownCourse.id}/a-lesson`,
      `/account/messages/${ownCourse.id}`,
      `/certificates/${ownCertificate}`,
      '/account/messages',
      '/bundles/cora-pack',
      '/s/cora-academy',
      '/s/Cora-Academy',
      '/cart',
      '/login',
      '/privacy',
    ]) {
      expect([path, await goesTo(path)]).toEqual([path, 'served'])
    }
    // The marketplace's own host is unchanged.
    for (const path of ['/pricing', `/courses/${strangersCourse.id}`, '/s/elsewhere-school', '/courses']) {
      expect([path, await goesTo(path, '127.0.0.1')]).toEqual([path, 'served'])
    }
    // The browser's router asks which site it is on, to do the same for links it follows (src-client/lib/site.ts).
    const site = async (host: string) =>
      (await app().inject({ url: '/trpc/domains.site', headers: { host } })).json().result.data
    expect(await site('academy.example.test')).toEqual({
      slug: 'cora-academy',
      name: 'Cora Academy',
      brand: null,
      marketplaceUrl: 'http://storefront.test',
    })
    expect(await site('127.0.0.1')).toBeNull()
    expect(await site('unknown.example.test')).toBeNull()
    // And, for a course's page or player or a bundle's page, whether the site serves it: the first hook's answer.
    const serves = async (input: object, host = 'academy.example.test') =>
      (
        await app().inject({
          url: `/trpc/domains.serves?input=${encodeURIComponent(JSON.stringify(input))}`,
          headers: { host },
        })
      ).json().result.data
    expect(await serves({ courseId: ownCourse.id })).toBe(true)
    expect(await serves({ courseId: strangersCourse.id })).toBe(false)
    expect(await serves({ courseId: 'no-such-course' })).toBe(false)
    expect(await serves({ bundleSlug: 'cora-pack' })).toBe(true)
    expect(await serves({ bundleSlug: 'someone-elses-bundle' })).toBe(false)
    expect(await serves({ certificateId: ownCertificate })).toBe(true)
    expect(await serves({ certificateId: strangersCertificate })).toBe(false)
    expect(await serves({ certificateId: 'no-such-certificate' })).toBe(false)
    expect(await serves({ certificateId: strangersCertificate }, '127.0.0.1')).toBe(true)
    expect(await serves({ courseId: strangersCourse.id }, '127.0.0.1')).toBe(true)
    // My courses names each course's school, so the school's site lists its own (decision 0150).
    const { user: learner } = await buyerOfCourse(db(), ownCourse.id)
    await buyerOfCourse(db(), strangersCourse.id, learner)
    const mine = await (await callerAs(db(), learner)).learning.myCourses()
    expect(Object.fromEntries(mine.map((course) => [course.id, course.school]))).toEqual({
      [ownCourse.id]: 'cora-academy',
      [strangersCourse.id]: 'elsewhere-school',
    })
    // So do the live sessions of /live (a Premium session has no school).
    const liveOf = (courseId: string | null, title: string) => liveSessionRow({ hostId: owner.id, courseId, title })
    await db()
      .insertInto('live_sessions')
      .values([
        liveOf(ownCourse.id, 'Cora live'),
        liveOf(strangersCourse.id, 'Elsewhere live'),
        liveOf(null, 'Premium live'),
      ])
      .execute()
    // And the orders: each names the school it was bought from.
    const orders = await (await callerAs(db(), learner)).purchases.orders()
    expect(orders.map((order) => order.school).sort()).toEqual(['cora-academy', 'elsewhere-school'])
    // And the conversations with instructors.
    await db()
      .insertInto('course_message_threads')
      .values([
        { course_id: ownCourse.id, member_id: learner.id, subject: 'To Cora' },
        { course_id: strangersCourse.id, member_id: learner.id, subject: 'To elsewhere' },
      ])
      .execute()
    const inbox = await (await callerAs(db(), learner)).instructorMessages.mine()
    expect(Object.fromEntries(inbox.map((thread) => [thread.subject, thread.school]))).toEqual({
      'To Cora': 'cora-academy',
      'To elsewhere': 'elsewhere-school',
    })
    // The cart there: each line names the school that sells it, and a checkout on the school's domain pays the
    // school's lines only: a cart that also holds another's is refused, with the way out; without it, it is paid.
    const shopper = await createUser(db())
    const asShopper = await callerAs(db(), shopper)
    await asShopper.cart.add({ kind: 'course', courseId: ownCourse.id })
    await asShopper.cart.add({ kind: 'course', courseId: strangersCourse.id })
    const cart = await asShopper.cart.list()
    expect(Object.fromEntries((cart?.items ?? []).map((line) => [line.courseId, line.school]))).toEqual({
      [ownCourse.id]: 'cora-academy',
      [strangersCourse.id]: 'elsewhere-school',
    })
    const onSchool = await createSession(db(), shopper.id, true, undefined, { siteHost: 'academy.example.test' })
    const start = () =>
      trpc(
        'payments.start',
        { currency: 'USD', method: 'bank_transfer' },
        `${SESSION_COOKIE}=${onSchool.token}`,
        'academy.example.test',
      )
    const refused = await start()
    expect([refused.status, JSON.stringify(refused.body)]).toEqual([
      409,
      expect.stringContaining(PAYMENT_MESSAGES.otherSellers),
    ])
    const strangersLine = cart?.items.find((line) => line.courseId === strangersCourse.id)
    await asShopper.cart.remove({ itemId: strangersLine?.id ?? '' })
    const started = await start()
    expect([started.status, JSON.stringify(started.body)]).toEqual([200, expect.stringContaining('"orderId"')])
    const live = await (await callerAs(db(), learner)).live.list()
    expect(Object.fromEntries(live.upcoming.map((session) => [session.title, session.school]))).toMatchObject({
      'Cora live': 'cora-academy',
      'Elsewhere live': 'elsewhere-school',
    })
    const staffLogin = await trpc(
      'admin.session.login',
      { email: owner.email, password: 'x' },
      '',
      'academy.example.test',
    )
    expect([staffLogin.status, JSON.stringify(staffLogin.body)]).toEqual([
      403,
      expect.stringContaining('Staff sign in'),
    ])

    // Another school cannot claim the same hostname.
    const other = await callerAs(db(), await createCreator(db(), { plan: 'enterprise' }))
    expect(await failure(other.domains.add({ hostname: 'academy.example.test' }))).toBe(
      'CONFLICT: Another school uses this domain',
    )
  })

  it('an unproven claim does not hold a hostname: its real owner adds and verifies it; then no one else can', async () => {
    const squatter = await createCreator(db(), { plan: 'pro' })
    const owner = await createCreator(db(), { plan: 'pro' })
    const asSquatter = await callerAs(db(), squatter)
    const asOwner = await callerAs(db(), owner)
    // Anyone may type a hostname; before its TXT record proves it, it must not lock out the domain's owner.
    await asSquatter.domains.add({ hostname: 'learn.claimed.example.test' })
    expect(await failure(asOwner.domains.add({ hostname: 'learn.claimed.example.test' }))).toBe('OK')
    const token = (await asOwner.domains.mine()).domain?.recordValue ?? ''
    const lookup = async (name: string) =>
      name === '_skillforge-verify.learn.claimed.example.test' ? [[token]] : ([] as string[][])
    expect(await checkSchoolDomain(db(), owner.id, lookup, 'http://storefront.test')).toMatchObject({ verified: true })
    // The squatter's token is not in DNS, and a verified hostname is no one else's to add.
    expect(await checkSchoolDomain(db(), squatter.id, lookup, 'http://storefront.test')).toMatchObject({
      verified: false,
    })
    const third = await callerAs(db(), await createCreator(db(), { plan: 'pro' }))
    expect(await failure(third.domains.add({ hostname: 'learn.claimed.example.test' }))).toBe(
      'CONFLICT: Another school uses this domain',
    )
  })

  it('a verified domain serves the school only while the owner’s plan includes it', async () => {
    const owner = await createCreator(db(), { plan: 'pro' })
    const asOwner = await callerAs(db(), owner)
    await asOwner.domains.add({ hostname: 'lapse.example.test' })
    const token = (await asOwner.domains.mine()).domain?.recordValue ?? ''
    const lookup = async (name: string) =>
      name === '_skillforge-verify.lapse.example.test' ? [[token]] : ([] as string[][])
    expect(await checkSchoolDomain(db(), owner.id, lookup, 'http://storefront.test')).toMatchObject({ verified: true })
    const allowed = async () =>
      (await app().inject({ url: '/internal/domain-allowed?domain=lapse.example.test' })).statusCode
    // (Served while the plan holds: the first test.) The plan lapses before anyone asks: the studio says a domain
    // needs Pro, and the site no longer answers under it.
    await lapsePlan(db(), owner.id)
    expect(await allowed()).toBe(404)
    expect((await app().inject({ url: '/', headers: { host: 'lapse.example.test' } })).statusCode).not.toBe(302)
  })

  it('a DNS server that does not answer: “Check now” ends within seconds saying to try again, and verifies once it answers', async () => {
    const owner = await createCreator(db(), { plan: 'pro' })
    const login = await app().inject({
      method: 'POST',
      url: '/trpc/auth.login',
      headers: { host: '127.0.0.1', origin: 'http://127.0.0.1', 'content-type': 'application/json' },
      payload: JSON.stringify({ email: owner.email, password: owner.password }),
    })
    const cookie = String(login.headers['set-cookie'] ?? '').split(';')[0] ?? ''
    expect((await trpc('domains.add', { hostname: 'silent.example.test' }, cookie)).status).toBe(200)
    const name = '_skillforge-verify.silent.example.test'
    records.set(name, (await (await callerAs(db(), owner)).domains.mine()).domain?.recordValue ?? '')
    dns.silent.add(name)
    try {
      const started = performance.now()
      const check = await trpc('domains.check', undefined, cookie)
      // The server's resolver: two tries on its 3 s timeout, the second longer (c-ares backs off), ~7.5 s in all.
      expect(performance.now() - started).toBeLessThan(15_000)
      expect(check.status).toBe(200)
      const answer = check.body.result?.data as { verified: boolean; status: string; message: string }
      expect(answer).toMatchObject({ verified: false, status: 'failed' })
      expect(answer.message).toMatch(/did not complete \(time-out or server failure\)\. Try again in a few minutes\./)
      expect(answer.message).not.toContain('127.0.0.1')
    } finally {
      dns.silent.delete(name)
    }
    // The DNS server answers again: the same click verifies.
    expect((await trpc('domains.check', undefined, cookie)).body.result?.data).toMatchObject({
      verified: true,
      status: 'verified',
    })
  }, 45_000)

  it('is the owner’s, on a plan that includes it; the platform’s own host is refused', async () => {
    const basic = await callerAs(db(), await createCreator(db(), { plan: 'basic' }))
    expect(await failure(basic.domains.add({ hostname: 'basic.example.test' }))).toBe(
      'PRECONDITION_FAILED: A custom domain comes with the Pro or Enterprise plan: see Pricing',
    )
    expect(await failure(basic.domains.saveBrand({ displayName: 'Mine', brandColor: '#112233' }))).toMatch(
      /White-label branding comes with the Enterprise plan/,
    )
    const pro = await callerAs(db(), await createCreator(db(), { plan: 'pro' }))
    expect(await failure(pro.domains.saveBrand({ displayName: 'Mine', brandColor: '#112233' }))).toMatch(
      /White-label branding comes with the Enterprise plan/,
    )
    expect(await failure(pro.domains.add({ hostname: 'shop.localhost.test' }))).toBe('OK')
    expect(await failure(pro.domains.add({ hostname: 'shop.localhost' }))).toMatch(
      /^BAD_REQUEST: Use a domain of your own/,
    )
    const learner = await callerAs(db(), await createUser(db()))
    expect(await failure(learner.domains.mine())).toMatch(/^FORBIDDEN/)
    expect(await failure((await callerAs(db(), null)).domains.mine())).toMatch(/^UNAUTHORIZED/)
  })
})

/** Every text the PDF draws, decoded through its fonts' ToUnicode maps, plus its Info strings. */
function pdfText(pdf: Buffer): string {
  const raw = pdf.toString('latin1')
  const streams: string[] = []
  for (const match of raw.matchAll(/stream\r?\n/g)) {
    const start = (match.index ?? 0) + match[0].length
    const bytes = pdf.subarray(start, raw.indexOf('endstream', start))
    try {
      streams.push(inflateSync(bytes).toString('latin1'))
    } catch {
      streams.push(bytes.toString('latin1'))
    }
  }
  const glyphs = new Map<string, string>()
  for (const cmap of streams.filter((s) => s.includes('begincmap'))) {
    for (const [, glyph, unicode] of cmap.matchAll(/<([0-9a-fA-F]{4})>\s*<([0-9a-fA-F]{4,})>/g)) {
      const units = (unicode ?? '').match(/.{4}/g)?.map((unit) => Number.parseInt(unit, 16)) ?? []
      glyphs.set((glyph ?? '').toLowerCase(), String.fromCharCode(...units))
    }
  }
  const drawn = streams
    .filter((s) => s.includes('TJ'))
    .flatMap((s) => [...s.matchAll(/<([0-9a-fA-F]+)>/g)].map((m) => m[1] ?? ''))
    .map((hex) => (hex.toLowerCase().match(/.{4}/g) ?? []).map((unit) => glyphs.get(unit) ?? '?').join(''))
    .join(' ')
  return `${drawn}\n${raw}`
}

describe('white label', () => {
  it('shows the school’s brand on its page, mail and certificate, with no SkillForge left on them', async () => {
    const owner = await createCreator(db(), { plan: 'enterprise' })
    const asOwner = await callerAs(db(), owner)
    await asOwner.schools.saveSettings({ name: 'Brandt Institute', slug: 'brandt-institute' })
    await asOwner.domains.saveBrand({ displayName: 'Brandt Institute', brandColor: '#AA3300' })
    const visitor = await callerAs(db(), null)
    expect(await visitor.domains.brand({ slug: 'brandt-institute' })).toEqual({
      displayName: 'Brandt Institute',
      brandColor: '#aa3300',
      logoUrl: null,
      slug: 'brandt-institute',
    })
    // Another school's page without a brand keeps SkillForge's.
    const plain = await createCreator(db(), { plan: 'pro' })
    await (await callerAs(db(), plain)).schools.saveSettings({ name: 'Plain', slug: 'plain-school' })
    expect(await visitor.domains.brand({ slug: 'plain-school' })).toBeNull()

    const course = await createCreatorCourse(db(), owner, { status: 'published', lessons: 2 })
    const { user: learner } = await buyerOfCourse(db(), course.id)
    const asLearner = await callerAs(db(), learner)
    for (const lesson of await lessonsOf(db(), course.id)) {
      await asLearner.learning.setCompleted({ courseId: course.id, lessonId: lesson.id, completed: true })
    }
    const mail = await db()
      .selectFrom('mail_outbox')
      .select(['subject', 'text_body'])
      .where('to_address', '=', learner.email)
      .where('kind', '=', 'course_completed')
      .executeTakeFirstOrThrow()
    expect(mail.text_body).toContain('Brandt Institute')
    expect(`${mail.subject}\n${mail.text_body}`).not.toMatch(/skillforge/i)

    const certificate = await db()
      .selectFrom('certificates')
      .select('id')
      .where('user_id', '=', learner.id)
      .executeTakeFirstOrThrow()
    const view = await certificateView(db(), certificate.id, 'https://academy.example.test')
    expect(view.issuer).toEqual({ name: 'Brandt Institute', color: '#aa3300' })
    expect(view.linkedInUrl).not.toMatch(/skillforge/i)
    const text = pdfText(await certificatePdf(view))
    expect(text).toContain('Brandt Institute')
    expect(text).not.toMatch(/skillforge/i)
    // The same certificate without the brand would say SkillForge: the search above can find it.
    expect(pdfText(await certificatePdf({ ...view, issuer: null }))).toContain('SkillForge')

    // Under the school's own domain every page is its site (decision 0143): the brand is the Host's, whatever page.
    await asOwner.domains.add({ hostname: 'brandt.example.test' })
    await db()
      .updateTable('school_domains')
      .set({ verified_at: new Date() })
      .where('hostname', '=', 'brandt.example.test')
      .execute()
    const brandOn = async (host: string, slug: string) =>
      (
        await app().inject({
          url: `/trpc/domains.brand?input=${encodeURIComponent(JSON.stringify({ slug }))}`,
          headers: { host },
        })
      ).json().result.data
    expect(await brandOn('brandt.example.test', 'plain-school')).toMatchObject({ displayName: 'Brandt Institute' })
    expect(await brandOn('127.0.0.1', 'plain-school')).toBeNull()

    // The owner takes the brand off (the studio's Remove brand): SkillForge's again; no one else may.
    const learnerCaller = await callerAs(db(), learner)
    expect(await failure(learnerCaller.domains.removeBrand())).toMatch(/^FORBIDDEN/)
    expect(await asOwner.domains.removeBrand()).toEqual({ removed: true })
    expect((await asOwner.domains.mine()).brand).toBeNull()
    expect(await visitor.domains.brand({ slug: 'brandt-institute' })).toBeNull()
    expect(await brandOn('brandt.example.test', 'brandt-institute')).toBeNull()
  })
})

describe('white-label order mails', () => {
  /** The order mail as it leaves (From, headers, subject and body), through the real delivery with MAIL_FROM set. */
  async function rendered(to: string, kind: string) {
    const row = await db()
      .selectFrom('mail_outbox')
      .select(['id', 'from_name'])
      .where('to_address', '=', to)
      .where('kind', '=', kind)
      .orderBy('created_at', 'desc')
      .executeTakeFirstOrThrow()
    const sent: MailMessage[] = []
    await deliverOutboxMail(
      {
        db: db(),
        log: captureLog().log,
        transport: { kind: 'smtp', send: async (message) => void sent.push(message) },
        from: 'SkillForge <no-reply@mail.example>',
      },
      row.id,
      { number: 1, of: 1 },
    )
    const message = sent[0]
    if (!message) throw new Error('nothing was sent')
    return { fromName: row.from_name, text: `From: ${message.from}\n${printedMail(message)}` }
  }

  it('a receipt for one white-label school’s courses is sent and signed under its name, with no SkillForge', async () => {
    const owner = await createCreator(db(), { plan: 'enterprise' })
    const asOwner = await callerAs(db(), owner)
    await asOwner.schools.saveSettings({ name: 'Receipt Academy', slug: 'receipt-academy' })
    await asOwner.domains.saveBrand({ displayName: 'Receipt Academy', brandColor: '#225588' })
    const courses = await Promise.all([
      createCreatorCourse(db(), owner, { status: 'published' }),
      createCreatorCourse(db(), owner, { status: 'published' }),
    ])
    const sale = await sell(
      db(),
      courses.map((course) => ({ ...course, price_minor: 4900 })),
    )
    const receipt = await rendered(sale.buyer.email, 'order_paid')
    expect(receipt.fromName).toBe('Receipt Academy')
    expect(receipt.text).toContain('From: "Receipt Academy" <no-reply@mail.example>')
    expect(receipt.text).toContain(`order ${sale.reference}`)
    expect(receipt.text).toMatch(/Thank you!\n\nReceipt Academy/)
    expect(receipt.text).not.toMatch(/skillforge/i)

    // With another school's course in the same order it is the platform's receipt: MAIL_FROM as it is.
    const other = await createCreator(db(), { plan: 'pro' })
    const othersCourse = await createCreatorCourse(db(), other, { status: 'published' })
    const mixed = await sell(db(), [
      { ...courses[0]!, price_minor: 4900 },
      { ...othersCourse, price_minor: 4900 },
    ])
    const platform = await rendered(mixed.buyer.email, 'order_paid')
    expect(platform.fromName).toBeNull()
    expect(platform.text).toContain('From: SkillForge <no-reply@mail.example>')
    expect(platform.text).not.toContain('Receipt Academy')

    // Once the plan no longer includes white label, the school's receipts are the platform's again.
    await db()
      .updateTable('access_grants')
      .set({ ends_at: new Date(Date.now() - 1000) })
      .where('user_id', '=', owner.id)
      .where('kind', '=', 'premium')
      .execute()
    const lapsed = await sell(db(), [{ ...courses[1]!, price_minor: 4900 }])
    expect((await rendered(lapsed.buyer.email, 'order_paid')).fromName).toBeNull()
  })

  it('a refund of one white-label school’s courses is sent and signed under its name, with no SkillForge', async () => {
    const owner = await createCreator(db(), { plan: 'enterprise' })
    const asOwner = await callerAs(db(), owner)
    await asOwner.schools.saveSettings({ name: 'Refund Academy', slug: 'refund-academy' })
    await asOwner.domains.saveBrand({ displayName: 'Refund Academy', brandColor: '#336655' })
    const course = await createCreatorCourse(db(), owner, { status: 'published', title: 'Clay Basics' })
    const staff = await createUser(db(), { role: 'admin' })
    const actor = { id: staff.id, email: staff.email }
    const sale = await sell(db(), [{ ...course, price_minor: 4900 }])
    await refundOrder(db(), { orderId: sale.orderId, reference: 'BANK-REF', actor }, null)
    const refund = await rendered(sale.buyer.email, 'order_refunded')
    expect(refund.fromName).toBe('Refund Academy')
    expect(refund.text).toContain('From: "Refund Academy" <no-reply@mail.example>')
    expect(refund.text).toContain(`order ${sale.reference}`)
    expect(refund.text).toContain('- Clay Basics')
    expect(refund.text).toMatch(/business days\.\n\nRefund Academy/)
    expect(refund.text).not.toMatch(/skillforge/i)

    // With another school's course in the order, the refund mail is the platform's: MAIL_FROM as it is.
    const other = await createCreator(db(), { plan: 'pro' })
    const othersCourse = await createCreatorCourse(db(), other, { status: 'published' })
    const mixed = await sell(db(), [
      { ...course, price_minor: 4900 },
      { ...othersCourse, price_minor: 4900 },
    ])
    await refundOrder(db(), { orderId: mixed.orderId, reference: 'BANK-REF-2', actor }, null)
    const platform = await rendered(mixed.buyer.email, 'order_refunded')
    expect(platform.fromName).toBeNull()
    expect(platform.text).toContain('From: SkillForge <no-reply@mail.example>')
    expect(platform.text).not.toContain('Refund Academy')
  })
})
