// Co-instructors split a course's creator share by the percentages its owner sets (issue 31, revenue share 2):
// stored per sale by largest remainder, released and reversed part by part, changed for future sales only; only the
// owner sets them, for exactly the course's team, summing to 100 %.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import * as partsMigration from '../../../db/migrations/2026_12_21_0000_premium_pool_share_parts.ts'
import { addCoInstructor, courseShares } from '../../../src-server/creators/course-instructors.ts'
import { creatorBalances, ledgerTotals } from '../../../src-server/earnings/balances.ts'
import { recordPoolMonth } from '../../../src-server/earnings/premium-pool.ts'
import { releaseDueHolds } from '../../../src-server/earnings/shares.ts'
import { removeCourseCoInstructor, setCourseEarningShares } from '../../../src-server/flows/course-team-invites.ts'
import { recipientsOf } from '../../../src-server/flows/creator-earnings.ts'
import { creatorPremiumPool } from '../../../src-server/flows/premium-pool-studio.ts'
import { refundOrder } from '../../../src-server/flows/refunds.ts'
import { courseSharesInput } from '../../../src-shared/schemas/course-review.ts'
import { createTestDatabase, type TestDatabase } from '../../support/db.ts'
import { ownedCourse, sell } from '../../support/earnings.ts'
import { createUser, type TestUser } from '../../support/factories.ts'

let database: TestDatabase
const db = () => database.db
let owner: TestUser
let co1: TestUser
let co2: TestUser
let admin: TestUser

beforeAll(async () => {
  database = await createTestDatabase()
  ;[owner, co1, co2, admin] = await Promise.all([
    createUser(db()),
    createUser(db()),
    createUser(db()),
    createUser(db(), { role: 'admin' }),
  ])
})
afterAll(() => database.close())

async function teamCourse(priceMinor: number) {
  const course = await ownedCourse(db(), owner.id, priceMinor)
  await addCoInstructor(db(), course.id, co1.id)
  await addCoInstructor(db(), course.id, co2.id)
  return course
}

const available = async (userId: string) => (await creatorBalances(db(), userId))[0]?.availableMinor ?? 0
const pending = async (userId: string) => (await creatorBalances(db(), userId))[0]?.pendingMinor ?? 0

async function partsOf(lineId: string) {
  const rows = await db()
    .selectFrom('earning_share_parts')
    .select(['creator_id', 'creator_minor', 'share_basis_points'])
    .where('order_item_id', '=', lineId)
    .execute()
  return new Map(rows.map((row) => [row.creator_id, row]))
}

describe('co-instructors’ earnings shares', () => {
  it('splits each sale by the owner’s percentages, no cent lost, and reverses exactly those parts', async () => {
    const course = await teamCourse(9999)
    await setCourseEarningShares(db(), owner.id, {
      courseId: course.id,
      shares: [
        { userId: owner.id, percent: 50 },
        { userId: co1.id, percent: 33.33 },
        { userId: co2.id, percent: 16.67 },
      ],
    })
    const sale = await sell(db(), [course])
    const lineId = sale.lineIds[0] as string
    const share = await db()
      .selectFrom('earning_shares')
      .select('creator_minor')
      .where('order_item_id', '=', lineId)
      .executeTakeFirstOrThrow()
    const parts = await partsOf(lineId)
    expect(parts.size).toBe(3)
    const amounts = [owner, co1, co2].map((person) => parts.get(person.id)?.creator_minor ?? 0)
    expect(amounts.reduce((a, b) => a + b, 0)).toBe(share.creator_minor)
    // Each part is within a cent of its exact percentage (largest remainder).
    for (const [index, bp] of [5000, 3333, 1667].entries()) {
      expect(Math.abs((amounts[index] ?? 0) - (share.creator_minor * bp) / 10_000)).toBeLessThan(1)
    }
    for (const [index, person] of [owner, co1, co2].entries()) {
      expect(await pending(person.id)).toBe(amounts[index])
    }

    // Past the hold each part becomes available; a refund then takes back exactly each part.
    await releaseDueHolds(db(), new Date(Date.now() + 31 * 86_400_000))
    for (const [index, person] of [owner, co1, co2].entries()) {
      expect(await available(person.id)).toBe(amounts[index])
      expect(await pending(person.id)).toBe(0)
    }
    await refundOrder(
      db(),
      { orderId: sale.orderId, lineIds: [lineId], reference: 'BANK-REF', actor: { id: admin.id, email: admin.email } },
      null,
    )
    for (const person of [owner, co1, co2]) expect(await available(person.id)).toBe(0)
    for (const total of (await ledgerTotals(db())).values()) expect(total).toBe(0)
  })

  it('changes the split for future sales only, and gives a removed co-instructor’s share back to the owner', async () => {
    const course = await teamCourse(10_000)
    // A new team: the owner holds 100 % until they say otherwise.
    const first = await sell(db(), [course])
    const firstParts = await partsOf(first.lineIds[0] as string)
    expect([...firstParts.keys()]).toEqual([owner.id])

    await setCourseEarningShares(db(), owner.id, {
      courseId: course.id,
      shares: [
        { userId: owner.id, percent: 60 },
        { userId: co1.id, percent: 40 },
        { userId: co2.id, percent: 0 },
      ],
    })
    const second = await sell(db(), [course])
    const secondParts = await partsOf(second.lineIds[0] as string)
    expect(secondParts.get(owner.id)?.share_basis_points).toBe(6000)
    expect(secondParts.get(co1.id)?.share_basis_points).toBe(4000)
    expect(secondParts.has(co2.id)).toBe(false)
    // The first sale's stored split did not move.
    expect(await partsOf(first.lineIds[0] as string)).toEqual(firstParts)

    await removeCourseCoInstructor(db(), owner.id, course.id, co1.id)
    const rows = await db()
      .selectFrom('course_instructors')
      .select(['user_id', 'share_basis_points'])
      .where('course_id', '=', course.id)
      .execute()
    expect(Object.fromEntries(rows.map((row) => [row.user_id, row.share_basis_points]))).toEqual({
      [owner.id]: 10_000,
      [co2.id]: 0,
    })
  })

  it('lets only the owner set shares, for exactly the course’s team, summing to 100 %', async () => {
    const course = await teamCourse(5000)
    const everyone = (percents: [number, number, number]) => ({
      courseId: course.id,
      shares: [owner, co1, co2].map((person, index) => ({ userId: person.id, percent: percents[index] as number })),
    })
    await expect(setCourseEarningShares(db(), co1.id, everyone([0, 100, 0]))).rejects.toMatchObject({
      kind: 'forbidden',
    })
    const stranger = await createUser(db())
    await expect(setCourseEarningShares(db(), stranger.id, everyone([100, 0, 0]))).rejects.toMatchObject({
      kind: 'not_found',
    })
    await expect(setCourseEarningShares(db(), owner.id, everyone([60, 30, 5]))).rejects.toMatchObject({
      kind: 'invalid',
    })
    // A table without one member (the team changed since the page loaded) is refused whole.
    await expect(
      setCourseEarningShares(db(), owner.id, {
        courseId: course.id,
        shares: [
          { userId: owner.id, percent: 50 },
          { userId: co1.id, percent: 50 },
        ],
      }),
    ).rejects.toMatchObject({ kind: 'conflict' })
    // Someone outside the team cannot be slipped in.
    await expect(
      setCourseEarningShares(db(), owner.id, {
        courseId: course.id,
        shares: [
          { userId: owner.id, percent: 50 },
          { userId: co1.id, percent: 25 },
          { userId: stranger.id, percent: 25 },
        ],
      }),
    ).rejects.toMatchObject({ kind: 'conflict' })
    const kept = await db()
      .selectFrom('course_instructors')
      .select('share_basis_points')
      .where('course_id', '=', course.id)
      .where('user_id', '=', owner.id)
      .executeTakeFirstOrThrow()
    expect(kept.share_basis_points).toBe(10_000)
  })

  it('splits a course’s Premium pool share among its instructors the same way, no cent lost', async () => {
    const course = await teamCourse(1000)
    await setCourseEarningShares(db(), owner.id, {
      courseId: course.id,
      shares: [
        { userId: owner.id, percent: 50 },
        { userId: co1.id, percent: 33.33 },
        { userId: co2.id, percent: 16.67 },
      ],
    })
    const before = await Promise.all([owner, co1, co2].map((person) => available(person.id)))
    const instructors = (await courseShares(db(), [course.id])).get(course.id)
    // A pool of 30 % of 10,001 = 3,000 cents, all to this course (the only one watched).
    const outcome = await db()
      .transaction()
      .execute((trx) =>
        recordPoolMonth(trx, {
          month: '2031-01',
          currency: 'USD',
          revenueMinor: 10_001,
          refundedMinor: 0,
          basisPoints: 3000,
          courses: [
            {
              courseId: course.id,
              creatorId: owner.id,
              title: course.title,
              seconds: 600,
              recipients: recipientsOf(instructors, owner.id),
            },
          ],
        }),
      )
    expect(outcome.distributedMinor).toBe(3000)
    const gained = await Promise.all(
      [owner, co1, co2].map(async (person, index) => (await available(person.id)) - (before[index] ?? 0)),
    )
    expect(gained).toEqual([1500, 1000, 500])
    for (const total of (await ledgerTotals(db())).values()) expect(total).toBe(0)
    // Each instructor's Earnings page shows the part they were credited, not the course's whole share.
    const shown = await Promise.all(
      [owner, co1, co2].map(async (person) =>
        (await creatorPremiumPool(db(), person.id)).shares
          .filter((share) => share.courseId === course.id)
          .map(({ month, shareMinor, minutesWatched }) => ({ month, shareMinor, minutesWatched })),
      ),
    )
    expect(shown).toEqual([1500, 1000, 500].map((shareMinor) => [{ month: '2031-01', shareMinor, minutesWatched: 10 }]))
  })

  it('the migration gives pool months computed before it the parts their ledgers were credited', async () => {
    const [team, solo] = [await teamCourse(1000), await ownedCourse(db(), owner.id, 1000)]
    const instructors = (await courseShares(db(), [team.id])).get(team.id)
    // A pool of 10 cents: the team's course earns it all; the course watched for one second earns 0.
    await db()
      .transaction()
      .execute((trx) =>
        recordPoolMonth(trx, {
          month: '2031-02',
          currency: 'USD',
          revenueMinor: 100,
          refundedMinor: 0,
          basisPoints: 1000,
          courses: [
            {
              courseId: team.id,
              creatorId: owner.id,
              title: team.title,
              seconds: 6000,
              recipients: recipientsOf(instructors, owner.id),
            },
            { courseId: solo.id, creatorId: owner.id, title: solo.title, seconds: 1 },
          ],
        }),
      )
    const parts = () =>
      db()
        .selectFrom('premium_pool_share_parts')
        .select(['month', 'currency', 'course_id', 'creator_id', 'share_minor'])
        .orderBy('month')
        .orderBy('course_id')
        .orderBy('creator_id')
        .execute()
    const written = await parts()
    expect(written.filter((part) => part.course_id === solo.id)).toEqual([
      { month: '2031-02', currency: 'USD', course_id: solo.id, creator_id: owner.id, share_minor: 0 },
    ])
    await partsMigration.down(db())
    await partsMigration.up(db())
    // Rebuilt from the ledger: every part credited, and a share of 0 (never posted) as its owner's 0.
    expect(await parts()).toEqual(written.filter((part) => part.share_minor > 0 || part.creator_id === owner.id))
  })

  it('refuses out-of-bounds input at the edge', () => {
    const base = { courseId: 'some-course', shares: [] as { userId: string; percent: number }[] }
    const id = '00000000-0000-4000-8000-000000000001'
    const id2 = '00000000-0000-4000-8000-000000000002'
    for (const shares of [
      [{ userId: id, percent: 101 }],
      [
        { userId: id, percent: -10 },
        { userId: id2, percent: 110 },
      ],
      [
        { userId: id, percent: 50.005 },
        { userId: id2, percent: 49.995 },
      ],
      [
        { userId: id, percent: 50 },
        { userId: id, percent: 50 },
      ],
      [{ userId: id, percent: 99.99 }],
    ]) {
      expect(courseSharesInput.safeParse({ ...base, shares }).success, JSON.stringify(shares)).toBe(false)
    }
    expect(
      courseSharesInput.safeParse({
        ...base,
        shares: [
          { userId: id, percent: 66.67 },
          { userId: id2, percent: 33.33 },
        ],
      }).success,
    ).toBe(true)
  })
})
