// Saving lessons for offline (issue 34): the server's pass decides who may keep a course's lessons in the browser and
// until when — Premium members for the Premium courses they open (until the latest end of their live Premium grants,
// 30 days at most),
// buyers only when the owner allows it, staff always; nobody else, and nobody once their hold has ended. Only the
// course's owner switches the buyers' permission (audited); a co-instructor sees it, another creator not at all.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { grant, revoke } from '../../../src-server/access/ledger.ts'
import { OFFLINE_PASS_DAYS } from '../../../src-server/flows/offline-lessons.ts'
import * as clock from '../../../src-server/kernel/clock.ts'
import { createCreator, createCreatorCourse } from '../../support/creator-courses.ts'
import { createTestDatabase, type TestDatabase } from '../../support/db.ts'
import { callerAs, createUser, type TestUser } from '../../support/factories.ts'
import { buyerOfCourse, premiumMember } from '../../support/learning.ts'

const INCLUDED = 'modern-react-typescript'
const DAY_MS = 86_400_000

let database: TestDatabase
const db = () => database.db
let member: TestUser
let buyer: TestUser

beforeAll(async () => {
  database = await createTestDatabase()
  member = (await premiumMember(db())).user
  buyer = (await buyerOfCourse(db(), INCLUDED)).user
})
afterAll(() => database.close())

const passOf = async (user: TestUser | null, courseId: string) =>
  (await (await callerAs(db(), user)).learning.offlinePasses({ courseIds: [courseId] }))[0]

describe('learning.offlinePasses', () => {
  it('lets a Premium member save a Premium course until the membership ends, 30 days at most', async () => {
    const pass = await passOf(member, INCLUDED)
    expect(pass).toMatchObject({ courseId: INCLUDED, allowed: true, reason: null })
    const until = Date.parse(pass?.validUntil ?? '')
    expect(until).toBeGreaterThan(clock.nowMs())
    expect(until).toBeLessThanOrEqual(clock.nowMs() + OFFLINE_PASS_DAYS * DAY_MS)
  })

  it('refuses a buyer until the course’s owner allows buyers, then gives 30 days', async () => {
    const refused = await passOf(buyer, INCLUDED)
    expect(refused).toMatchObject({ allowed: false, validUntil: null })
    expect(refused?.reason).toMatch(/Premium benefit/)
    await db().updateTable('courses').set({ offline_for_buyers: true }).where('id', '=', INCLUDED).execute()
    try {
      const pass = await passOf(buyer, INCLUDED)
      expect(pass?.allowed).toBe(true)
      expect(Date.parse(pass?.validUntil ?? '')).toBeGreaterThan(clock.nowMs() + (OFFLINE_PASS_DAYS - 1) * DAY_MS)
    } finally {
      await db().updateTable('courses').set({ offline_for_buyers: false }).where('id', '=', INCLUDED).execute()
    }
  })

  it('refuses someone who holds nothing, a course outside Premium for a member, and a visitor outright', async () => {
    const stranger = await createUser(db())
    expect(await passOf(stranger, INCLUDED)).toMatchObject({ allowed: false, validUntil: null })
    await db().updateTable('courses').set({ included_in_premium: false }).where('id', '=', 'sql-for-analysts').execute()
    expect(await passOf(member, 'sql-for-analysts')).toMatchObject({ allowed: false })
    await expect(passOf(null, INCLUDED)).rejects.toMatchObject({ code: 'UNAUTHORIZED' })
    await expect((await callerAs(db(), member)).learning.offlinePasses({ courseIds: [] })).rejects.toMatchObject({
      code: 'BAD_REQUEST',
    })
  })

  it('runs a member’s pass to the latest end among their live Premium grants, 30 days at most', async () => {
    const { user } = await premiumMember(db())
    const now = clock.nowMs()
    const untilOf = async () => Date.parse((await passOf(user, INCLUDED))?.validUntil ?? '')
    // The plan is cancelled: its Premium ends in 5 days. Staff gave Premium for 20 days besides.
    await db()
      .updateTable('access_grants')
      .set({ ends_at: new Date(now + 5 * DAY_MS) })
      .where('user_id', '=', user.id)
      .where('kind', '=', 'premium')
      .execute()
    expect(await untilOf()).toBe(now + 5 * DAY_MS)
    const extra = await grant(db(), {
      userId: user.id,
      right: { kind: 'premium' },
      source: { kind: 'staff' },
      endsAt: new Date(now + 20 * DAY_MS),
    })
    expect(await untilOf()).toBe(now + 20 * DAY_MS)
    // A longer grant, or one with no end: 30 days at most.
    await db()
      .updateTable('access_grants')
      .set({ ends_at: new Date(now + 60 * DAY_MS) })
      .where('id', '=', extra.id)
      .execute()
    expect(await untilOf()).toBeGreaterThan(now + (OFFLINE_PASS_DAYS - 1) * DAY_MS)
    expect(await untilOf()).toBeLessThanOrEqual(clock.nowMs() + OFFLINE_PASS_DAYS * DAY_MS)
    await db().updateTable('access_grants').set({ ends_at: null }).where('id', '=', extra.id).execute()
    expect(await untilOf()).toBeGreaterThan(now + (OFFLINE_PASS_DAYS - 1) * DAY_MS)
    // Revoked, the longer grant no longer counts: the plan's end again.
    await revoke(db(), { grantId: extra.id }, 'refund')
    expect(await untilOf()).toBe(now + 5 * DAY_MS)
  })

  it('stops the pass when the Premium membership has ended (the copies are removed at the next start)', async () => {
    const former = (await premiumMember(db())).user
    expect((await passOf(former, INCLUDED))?.allowed).toBe(true)
    await db()
      .updateTable('access_grants')
      .set({ ends_at: new Date(clock.nowMs() - 1000) })
      .where('user_id', '=', former.id)
      .where('kind', '=', 'premium')
      .execute()
    const pass = await passOf(former, INCLUDED)
    expect(pass).toMatchObject({ allowed: false, validUntil: null })
    expect(pass?.reason).toMatch(/no longer hold/)
  })
})

describe('the studio offline switch', () => {
  it('is the owner’s alone (audited); a co-instructor sees it, another creator gets nothing', async () => {
    const owner = await createCreator(db())
    const co = await createCreator(db())
    const stranger = await createCreator(db())
    const course = await createCreatorCourse(db(), owner, { status: 'published' })
    await db().insertInto('course_instructors').values({ course_id: course.id, user_id: co.id, role: 'co' }).execute()
    const ownerCaller = await callerAs(db(), owner)
    expect(await ownerCaller.premiumPool.offline({ courseId: course.id })).toEqual({ allowed: false, canChange: true })
    await ownerCaller.premiumPool.setOffline({ courseId: course.id, allowed: true })
    await ownerCaller.premiumPool.setOffline({ courseId: course.id, allowed: true })
    const audit = await db()
      .selectFrom('audit_log')
      .select(['action', 'actor_id'])
      .where('entity_id', '=', course.id)
      .execute()
    expect(audit).toEqual([{ action: 'course.offline_allowed', actor_id: owner.id }])
    const coCaller = await callerAs(db(), co)
    expect(await coCaller.premiumPool.offline({ courseId: course.id })).toEqual({ allowed: true, canChange: false })
    await expect(coCaller.premiumPool.setOffline({ courseId: course.id, allowed: false })).rejects.toMatchObject({
      code: 'FORBIDDEN',
    })
    const strangerCaller = await callerAs(db(), stranger)
    await expect(strangerCaller.premiumPool.offline({ courseId: course.id })).rejects.toMatchObject({
      code: 'NOT_FOUND',
    })
    await expect(strangerCaller.premiumPool.setOffline({ courseId: course.id, allowed: false })).rejects.toMatchObject({
      code: 'NOT_FOUND',
    })
  })
})
