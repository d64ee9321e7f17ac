// A Premium member who also buys a course of Premium holds it both ways: buying it must not take away what Premium
// already gave them (their offline pass, the dripped sections Premium had opened). The purchase comes first in
// courseAccessSource, so each rule that reads the source has to give the member's benefit too.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { sweepDripUnlocks } from '../../../src-server/flows/drip-unlocks.ts'
import { OFFLINE_PASS_DAYS } from '../../../src-server/flows/offline-lessons.ts'
import * as clock from '../../../src-server/kernel/clock.ts'
import { createTestDatabase, type TestDatabase } from '../../support/db.ts'
import { callerAs, createUser, type TestUser } from '../../support/factories.ts'
import { buyerOfCourse, premiumMember } from '../../support/learning.ts'

const INCLUDED = 'modern-react-typescript'
const DAY_MS = 86_400_000

let database: TestDatabase
const db = () => database.db

beforeAll(async () => {
  database = await createTestDatabase()
})
afterAll(() => database.close())
afterEach(() => clock.resetClock())

const passOf = async (user: TestUser, courseId: string) =>
  (await (await callerAs(db(), user)).learning.offlinePasses({ courseIds: [courseId] }))[0]

describe('a Premium member who buys a Premium course', () => {
  it('keeps saving its lessons offline though the owner does not let buyers', async () => {
    const { user: member } = await premiumMember(db())
    expect(await passOf(member, INCLUDED)).toMatchObject({ allowed: true })
    await buyerOfCourse(db(), INCLUDED, member)
    const pass = await passOf(member, INCLUDED)
    expect(pass).toMatchObject({ courseId: INCLUDED, allowed: true, reason: null })
    const until = Date.parse(pass?.validUntil ?? '')
    expect(until).toBeGreaterThan(clock.nowMs())
    expect(until).toBeLessThanOrEqual(clock.nowMs() + OFFLINE_PASS_DAYS * DAY_MS)
  })
})

/** A non-preview lesson of the course and its section, the section dripped `afterDays` after access began. */
async function drippedLesson(courseId: string, afterDays: number) {
  const lesson = await db()
    .selectFrom('lessons')
    .select(['id', 'section_id'])
    .where('course_id', '=', courseId)
    .where('pending_review', '=', false)
    .where('is_preview', '=', false)
    .orderBy('position', 'desc')
    .executeTakeFirstOrThrow()
  const staff = await createUser(db(), { role: 'editor' })
  await (await callerAs(db(), staff)).drip.setSection({
    courseId,
    sectionId: lesson.section_id,
    afterDays,
    opensAt: null,
  })
  return lesson
}

describe('a Premium member who buys a Premium course with a dripped section', () => {
  it('keeps the sections Premium had opened: the drip counts from the earlier of the two holds', async () => {
    const lesson = await drippedLesson(INCLUDED, 7)
    const { user: member } = await premiumMember(db())
    const learner = await callerAs(db(), member)
    const ref = { courseId: INCLUDED, lessonId: lesson.id }
    expect((await learner.learning.lesson(ref)).locked).toBe(true)
    await clock.advanceClock(10 * 86_400)
    expect((await learner.learning.lesson(ref)).locked).toBe(false)

    await buyerOfCourse(db(), INCLUDED, member)
    const opened = await learner.learning.lesson(ref)
    expect(opened).toMatchObject({ locked: false, unlocksAt: null })
    const section = (await learner.learning.course({ courseId: INCLUDED })).sections.find((s) =>
      s.lessons.some((l) => l.id === lesson.id),
    )
    expect(section?.unlocksAt).toBeNull()
    await expect(learner.learning.setCompleted({ ...ref, completed: true })).resolves.toMatchObject({ completed: true })
  })
})

describe('the "section open" mail of a Premium member who buys a Premium course', () => {
  const dripMails = (to: string) =>
    db()
      .selectFrom('mail_outbox')
      .select('subject')
      .where('kind', '=', 'drip_unlocked')
      .where('to_address', '=', to)
      .execute()
  const sweep = () => sweepDripUnlocks(db(), 'http://localhost:3000')

  it('is not sent for a section Premium had opened before the purchase, then or when the purchase alone would open it', async () => {
    await drippedLesson(INCLUDED, 7)
    const { user: member } = await premiumMember(db())
    await clock.advanceClock(10 * 86_400)
    await buyerOfCourse(db(), INCLUDED, member)
    await sweep()
    await clock.advanceClock(8 * 86_400)
    await sweep()
    expect(await dripMails(member.email)).toHaveLength(0)
  })

  it('is sent once when the section opens by the Premium count, not days later by the purchase date', async () => {
    await drippedLesson(INCLUDED, 7)
    const { user: member } = await premiumMember(db())
    await clock.advanceClock(3 * 86_400)
    await buyerOfCourse(db(), INCLUDED, member)
    await sweep()
    expect(await dripMails(member.email)).toHaveLength(0)
    await clock.advanceClock(4 * 86_400 + 3600)
    await sweep()
    await sweep()
    expect(await dripMails(member.email)).toHaveLength(1)
    await clock.advanceClock(4 * 86_400)
    await sweep()
    expect(await dripMails(member.email)).toHaveLength(1)
  })
})
