// The Premium pool in the studio: only a course's owner switches it into Premium (audited; a co-instructor sees the
// state, another creator not even the course), a Premium member then opens it, and the Earnings page's pool lists
// each of the creator's own courses with the minutes watched and the share, never another creator's.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { recordPoolMonth } from '../../../src-server/earnings/premium-pool.ts'
import * as clock from '../../../src-server/kernel/clock.ts'
import { recordPremiumWatch, watchMonthOf } from '../../../src-server/learning/watch-time.ts'
import { createCreator, createCreatorCourse } from '../../support/creator-courses.ts'
import { createTestDatabase, type TestDatabase } from '../../support/db.ts'
import { callerAs, type TestUser } from '../../support/factories.ts'
import { premiumMember } from '../../support/learning.ts'

let database: TestDatabase
const db = () => database.db
let owner: TestUser
let co: TestUser
let stranger: TestUser
let course: Awaited<ReturnType<typeof createCreatorCourse>>

beforeAll(async () => {
  database = await createTestDatabase()
  owner = await createCreator(db())
  co = await createCreator(db())
  stranger = await createCreator(db())
  course = await createCreatorCourse(db(), owner, { status: 'published' })
  // As the studio makes it: a creator's course starts outside Premium.
  await db().updateTable('courses').set({ included_in_premium: false }).where('id', '=', course.id).execute()
  await db().insertInto('course_instructors').values({ course_id: course.id, user_id: co.id, role: 'co' }).execute()
})
afterAll(() => database.close())

describe('the studio Premium switch', () => {
  it('is the owner’s alone: audited, and a Premium member then opens the whole course', async () => {
    const member = (await premiumMember(db())).user
    const memberCaller = await callerAs(db(), member)
    const lockedLesson = course.lessonIds[1]!
    await expect(memberCaller.learning.lesson({ courseId: course.id, lessonId: lockedLesson })).resolves.toMatchObject({
      locked: true,
    })

    const ownerCaller = await callerAs(db(), owner)
    expect(await ownerCaller.premiumPool.inclusion({ courseId: course.id })).toEqual({
      included: false,
      canChange: true,
    })
    await ownerCaller.premiumPool.setInclusion({ courseId: course.id, included: true })
    expect(await ownerCaller.premiumPool.inclusion({ courseId: course.id })).toEqual({
      included: true,
      canChange: true,
    })
    // Switching it on again changes nothing and records nothing more.
    await ownerCaller.premiumPool.setInclusion({ courseId: course.id, included: true })
    const audit = await db()
      .selectFrom('audit_log')
      .select(['action', 'actor_id'])
      .where('entity_id', '=', course.id)
      .execute()
    expect(audit).toEqual([{ action: 'course.premium_included', actor_id: owner.id }])
    await expect(memberCaller.learning.lesson({ courseId: course.id, lessonId: lockedLesson })).resolves.toMatchObject({
      locked: false,
    })

    const coCaller = await callerAs(db(), co)
    expect(await coCaller.premiumPool.inclusion({ courseId: course.id })).toEqual({ included: true, canChange: false })
    await expect(coCaller.premiumPool.setInclusion({ courseId: course.id, included: false })).rejects.toMatchObject({
      code: 'FORBIDDEN',
    })
    const strangerCaller = await callerAs(db(), stranger)
    await expect(strangerCaller.premiumPool.inclusion({ courseId: course.id })).rejects.toMatchObject({
      code: 'NOT_FOUND',
    })
    await expect(
      strangerCaller.premiumPool.setInclusion({ courseId: course.id, included: false }),
    ).rejects.toMatchObject({ code: 'NOT_FOUND' })
    await expect(memberCaller.premiumPool.mine()).rejects.toMatchObject({ code: 'FORBIDDEN' })
  })

  it('shows the creator their courses’ minutes this month and each computed share, and nobody else’s', async () => {
    // Courses of their own (the tests run in any order): the switch test's course stays out of Premium until it runs.
    const course = await createCreatorCourse(db(), owner, { status: 'published' })
    const other = await createCreatorCourse(db(), stranger, { status: 'published' })
    await db()
      .updateTable('courses')
      .set({ included_in_premium: true })
      .where('id', 'in', [course.id, other.id])
      .execute()
    const month = watchMonthOf(clock.now())
    const member = (await premiumMember(db())).user
    // The member has been watching for 150 s on the server's clock (their watch time never runs ahead of it).
    await db()
      .insertInto('premium_watch_clocks')
      .values({ user_id: member.id, credited_until: new Date(clock.nowMs() - 150_000) })
      .execute()
    await recordPremiumWatch(db(), { userId: member.id, courseId: course.id, seconds: 150, at: clock.now() })
    await db()
      .transaction()
      .execute((trx) =>
        recordPoolMonth(trx, {
          month: '2020-01',
          currency: 'USD',
          revenueMinor: 10_000,
          refundedMinor: 0,
          basisPoints: 3000,
          courses: [
            { courseId: course.id, creatorId: owner.id, title: 'x', seconds: 120 },
            { courseId: other.id, creatorId: stranger.id, title: 'y', seconds: 60 },
          ],
        }),
      )

    const mine = await (await callerAs(db(), owner)).premiumPool.mine()
    expect(mine.month).toBe(month)
    expect(mine.current).toContainEqual({ courseId: course.id, title: expect.any(String), minutesWatched: 3 })
    expect(mine.current.some((row) => row.courseId === other.id)).toBe(false)
    expect(mine.shares).toEqual([
      {
        month: '2020-01',
        currency: 'USD',
        courseId: course.id,
        title: expect.any(String),
        minutesWatched: 2,
        shareMinor: 2000,
      },
    ])
    const theirs = await (await callerAs(db(), stranger)).premiumPool.mine()
    expect(theirs.shares.map((share) => [share.courseId, share.shareMinor])).toEqual([[other.id, 1000]])
  })
})
