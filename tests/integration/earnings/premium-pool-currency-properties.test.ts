// The Premium pool per currency (GBP beside USD), as a property: for random months of revenue, refunds and watch time
// across creators, recordPoolMonth's split sums exactly to the pool in each currency, nobody gets a share in a
// currency nobody watched them in, the shares and the ledger agree, every ledger sums to 0 per currency, and a re-run
// of the same month records nothing new. Refunds follow the documented rule: the pool is basis points of revenue less
// refunds, rounded down, never below 0.
import fc from 'fast-check'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { insertCourse } from '../../../db/seed/factories.ts'
import { ledgerTotals } from '../../../src-server/earnings/balances.ts'
import { poolOf, recordPoolMonth } from '../../../src-server/earnings/premium-pool.ts'
import type { Currency } from '../../../src-shared/money.ts'
import { createCreator } from '../../support/creator-courses.ts'
import { createTestDatabase, type TestDatabase } from '../../support/db.ts'

let database: TestDatabase
let categoryId: string
const db = () => database.db
const RUNS = Number(process.env.MONEY_PROPERTY_RUNS ?? 15)
const CURRENCIES: readonly Currency[] = ['USD', 'GBP']

beforeAll(async () => {
  database = await createTestDatabase()
  const category = await db().selectFrom('categories').select('id').limit(1).executeTakeFirstOrThrow()
  categoryId = category.id
})
afterAll(async () => {
  await database.close()
})

let courseCount = 0
let monthCount = 0
async function ownedCourse(ownerId: string) {
  const id = `pool-cur-course-${++courseCount}`
  await insertCourse(db(), { id, title: `Pool cur ${courseCount}`, category_id: categoryId, status: 'published' })
  await db().updateTable('courses').set({ owner_id: ownerId }).where('id', '=', id).execute()
  return id
}

const currencyMonth = fc.record({
  revenueMinor: fc.integer({ min: 0, max: 5_000_000 }),
  refundedMinor: fc.integer({ min: 0, max: 6_000_000 }),
  basisPoints: fc.integer({ min: 0, max: 10_000 }),
  // Seconds watched per creator (0: watched nobody's course in this currency).
  seconds: fc.array(fc.integer({ min: 0, max: 100_000 }), { minLength: 3, maxLength: 3 }),
})

describe('the Premium pool per currency (property)', () => {
  it('splits exactly per currency, credits only creators watched in it, and a re-run records nothing', async () => {
    const creators = [await createCreator(db()), await createCreator(db()), await createCreator(db())]
    const courses = await Promise.all(creators.map((creator) => ownedCourse(creator.id)))
    await fc.assert(
      fc.asyncProperty(fc.record({ USD: currencyMonth, GBP: currencyMonth }), async (months) => {
        // A month of its own per run (months are claimed once per month and currency).
        const n = ++monthCount
        const month = `${2100 + Math.floor(n / 12)}-${String((n % 12) + 1).padStart(2, '0')}`
        for (const currency of CURRENCIES) {
          const m = months[currency]
          const input = {
            month,
            currency,
            revenueMinor: m.revenueMinor,
            refundedMinor: m.refundedMinor,
            basisPoints: m.basisPoints,
            courses: creators.map((creator, i) => ({
              courseId: courses[i] as string,
              creatorId: creator.id,
              title: `Pool cur ${i}`,
              seconds: m.seconds[i] ?? 0,
            })),
          }
          const first = await db()
            .transaction()
            .execute((trx) => recordPoolMonth(trx, input))
          const expectedPool = Math.max(0, Math.floor(((m.revenueMinor - m.refundedMinor) * m.basisPoints) / 10_000))
          expect(first.recorded).toBe(true)
          expect(first.poolMinor).toBe(expectedPool)
          expect(first.poolMinor).toBe(poolOf(m.revenueMinor, m.refundedMinor, m.basisPoints))
          const watched = m.seconds.some((s) => s > 0)
          expect(first.distributedMinor).toBe(watched ? first.poolMinor : 0)
          for (const share of first.shares) {
            expect(Number.isInteger(share.shareMinor)).toBe(true)
            expect(share.shareMinor).toBeGreaterThanOrEqual(0)
            expect(share.seconds).toBeGreaterThan(0)
          }
          // Stored shares: in this currency only, for creators watched in it, summing to what was distributed.
          const stored = await db()
            .selectFrom('premium_pool_shares')
            .select(['creator_id', 'currency', 'share_minor'])
            .where('month', '=', month)
            .where('currency', '=', currency)
            .execute()
          expect(stored.reduce((sum, row) => sum + Number(row.share_minor), 0)).toBe(first.distributedMinor)
          for (const row of stored) {
            const index = creators.findIndex((creator) => creator.id === row.creator_id)
            expect(m.seconds[index]).toBeGreaterThan(0)
          }
          // A re-run of the same month records nothing new.
          const shareRowsBefore = stored.length
          const entriesBefore = await db()
            .selectFrom('ledger_entries')
            .select((eb) => eb.fn.countAll<string>().as('n'))
            .executeTakeFirstOrThrow()
          const again = await db()
            .transaction()
            .execute((trx) => recordPoolMonth(trx, input))
          expect(again.recorded).toBe(false)
          const entriesAfter = await db()
            .selectFrom('ledger_entries')
            .select((eb) => eb.fn.countAll<string>().as('n'))
            .executeTakeFirstOrThrow()
          expect(Number(entriesAfter.n)).toBe(Number(entriesBefore.n))
          const storedAgain = await db()
            .selectFrom('premium_pool_shares')
            .select('course_id')
            .where('month', '=', month)
            .where('currency', '=', currency)
            .execute()
          expect(storedAgain.length).toBe(shareRowsBefore)
        }
        for (const total of (await ledgerTotals(db())).values()) expect(total).toBe(0)
      }),
      { numRuns: RUNS },
    )
  })
})
