// Links in the mails the job queue sends later (issue 36, decision 0063): with no request to name a host, a mail
// about one school's course links to the school's verified domain (PUBLIC_URL's scheme and port), and to PUBLIC_URL
// when the school has no domain or has not verified it — the drip sweep's "section open" mail and a live session's
// announcement and reminder, each run as its job runs them.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { ensureSchool } from '../../../src-server/creators/schools.ts'
import { sweepDripUnlocks } from '../../../src-server/flows/drip-unlocks.ts'
import { announceLiveSessions, sendLiveReminders } from '../../../src-server/flows/live-sessions.ts'
import { courseSiteUrls, schoolForHost, siteUrlForCourse } from '../../../src-server/flows/school-domain.ts'
import { advanceClock, now, resetClock } from '../../../src-server/kernel/clock.ts'
import type { DatabaseHandle } from '../../../src-server/kernel/db.ts'
import { createCreator, createCreatorCourse, lapsePlan } from '../../support/creator-courses.ts'
import { createTestDatabase } from '../../support/db.ts'
import { callerAs, type TestUser } from '../../support/factories.ts'
import { buyerOfCourse } from '../../support/learning.ts'

const PUBLIC_URL = 'https://shop.example.test:8443'
const DAY = 86_400

let database: DatabaseHandle
beforeAll(async () => {
  database = await createTestDatabase()
})
afterAll(() => database?.close())
afterEach(() => resetClock())
const db = () => database.db

/** A creator's published course in their school; `domain`: the school's hostname, verified unless said otherwise. */
async function schoolCourse(domain?: { hostname: string; verified: boolean }) {
  const owner = await createCreator(db(), { plan: 'pro' })
  const course = await createCreatorCourse(db(), owner, { status: 'published', lessons: 2 })
  const school = await ensureSchool(db(), owner.id)
  if (domain) {
    await db()
      .insertInto('school_domains')
      .values({
        school_id: school.id,
        hostname: domain.hostname,
        verification_token: 'sf-proof',
        verified_at: domain.verified ? new Date() : null,
      })
      .execute()
  }
  return { owner, courseId: course.id }
}

async function lastLink(to: string, kind: string) {
  const mail = await db()
    .selectFrom('mail_outbox')
    .select('text_body')
    .where('to_address', '=', to)
    .where('kind', '=', kind)
    .orderBy('created_at', 'desc')
    .executeTakeFirstOrThrow()
  return /(https?:\/\/\S+)/.exec(mail.text_body)?.[1] ?? ''
}

describe('links in queued course mails', { timeout: 120_000 }, () => {
  it('the resolver answers the verified domain of a course’s school, else PUBLIC_URL', async () => {
    const verified = await schoolCourse({ hostname: 'learn.resolver.test', verified: true })
    const pending = await schoolCourse({ hostname: 'learn.unproved.test', verified: false })
    const plain = await schoolCourse()
    expect(await siteUrlForCourse(db(), PUBLIC_URL, verified.courseId)).toBe('https://learn.resolver.test:8443')
    expect(await siteUrlForCourse(db(), PUBLIC_URL, pending.courseId)).toBe(PUBLIC_URL)
    expect(await siteUrlForCourse(db(), PUBLIC_URL, plain.courseId)).toBe(PUBLIC_URL)
    expect(await siteUrlForCourse(db(), PUBLIC_URL, 'no-such-course')).toBe(PUBLIC_URL)
    const origins = courseSiteUrls(db(), PUBLIC_URL)
    expect(await origins(null)).toBe(PUBLIC_URL)
    expect(await origins(verified.courseId)).toBe('https://learn.resolver.test:8443')
  })

  it('a school whose plan no longer includes a domain links to PUBLIC_URL, as its domain no longer serves it', async () => {
    const lapsed = await schoolCourse({ hostname: 'learn.lapsed.test', verified: true })
    expect(await siteUrlForCourse(db(), PUBLIC_URL, lapsed.courseId)).toBe('https://learn.lapsed.test:8443')
    await lapsePlan(db(), lapsed.owner.id)
    // Host routing (and Caddy's certificate ask) no longer answer for the name: a link there would not open.
    expect(await schoolForHost(db(), 'learn.lapsed.test')).toBeNull()
    expect(await siteUrlForCourse(db(), PUBLIC_URL, lapsed.courseId)).toBe(PUBLIC_URL)
    expect(await courseSiteUrls(db(), PUBLIC_URL)(lapsed.courseId)).toBe(PUBLIC_URL)
  })

  it('the drip sweep’s mail links to the school’s verified domain; another school’s to PUBLIC_URL', async () => {
    const onDomain = await schoolCourse({ hostname: 'learn.drip.test', verified: true })
    const unproved = await schoolCourse({ hostname: 'learn.dripless.test', verified: false })
    const learners: TestUser[] = []
    for (const { owner, courseId } of [onDomain, unproved]) {
      const section = await db()
        .selectFrom('course_sections')
        .select('id')
        .where('course_id', '=', courseId)
        .executeTakeFirstOrThrow()
      await (await callerAs(db(), owner)).drip.setSection({
        courseId,
        sectionId: section.id,
        afterDays: 1,
        opensAt: null,
      })
      learners.push((await buyerOfCourse(db(), courseId)).user)
    }
    await advanceClock(DAY + 3600)
    expect(await sweepDripUnlocks(db(), PUBLIC_URL)).toBeGreaterThanOrEqual(2)
    const [first, second] = learners as [TestUser, TestUser]
    expect(await lastLink(first.email, 'drip_unlocked')).toBe(`https://learn.drip.test:8443/learn/${onDomain.courseId}`)
    expect(await lastLink(second.email, 'drip_unlocked')).toBe(`${PUBLIC_URL}/learn/${unproved.courseId}`)
  })

  it('a live session’s announcement and reminder link to its course’s school domain', async () => {
    const { owner, courseId } = await schoolCourse({ hostname: 'learn.live.test', verified: true })
    const { user: learner } = await buyerOfCourse(db(), courseId)
    const start = new Date(now().getTime() + 2 * DAY * 1000)
    const { id } = await (await callerAs(db(), owner)).live.schedule({
      courseId,
      title: 'Office hours',
      description: 'Bring your questions',
      localStart: start.toISOString().slice(0, 16),
      timeZone: 'UTC',
      durationMinutes: 60,
      capacity: 10,
      joinUrl: 'https://meet.example.com/abc-defg',
    })
    // The course's learner is told it is scheduled (decision 0142), with the way to register on the school's site.
    expect(await announceLiveSessions(db(), PUBLIC_URL)).toBeGreaterThanOrEqual(1)
    expect(await lastLink(learner.email, 'live_announced')).toBe('https://learn.live.test:8443/live')
    await (await callerAs(db(), learner)).live.register({ sessionId: id })
    const session = await db()
      .selectFrom('live_sessions')
      .select('starts_at')
      .where('id', '=', id)
      .executeTakeFirstOrThrow()
    await advanceClock((session.starts_at.getTime() - now().getTime() - 59 * 60_000) / 1000)
    expect(await sendLiveReminders(db(), PUBLIC_URL)).toBeGreaterThanOrEqual(1)
    expect(await lastLink(learner.email, 'live_reminder')).toBe('https://learn.live.test:8443/live')
  })
})
