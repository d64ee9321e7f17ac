// The home page's statistics band (catalog.stats): learners holding a course, instructors teaching a published
// course and creators' earnings per currency, counted from the database and kept a minute per node.
import { afterAll, beforeAll, expect, it } from 'vitest'
import { grant, revoke } from '../../../src-server/access/ledger.ts'
import { post } from '../../../src-server/earnings/ledger.ts'
import { STATS_KEPT_MS } from '../../../src-server/flows/marketplace-stats.ts'
import * as clock from '../../../src-server/kernel/clock.ts'
import type { DatabaseHandle } from '../../../src-server/kernel/db.ts'
import { headlineCount } from '../../../src-shared/numbers.ts'
import { createCreator, createCreatorCourse } from '../../support/creator-courses.ts'
import { createTestDatabase } from '../../support/db.ts'
import { callerAs, createUser } from '../../support/factories.ts'

let database: DatabaseHandle
const db = () => database.db
const stats = async () => (await callerAs(db(), null)).catalog.stats()
/** Past the minute a node keeps the figures. */
const later = () => clock.advanceClock(STATS_KEPT_MS / 1000 + 1)

beforeAll(async () => {
  database = await createTestDatabase()
})
afterAll(async () => {
  clock.resetClock()
  await database.close()
})

it('counts learners holding a course, once each, and not after their access is revoked', async () => {
  await later()
  const before = await stats()
  // The seed's demo learners hold its courses; no one is counted twice for holding two.
  expect(before.activeStudents).toBeGreaterThan(0)
  const [first, second] = await db()
    .selectFrom('courses')
    .select('id')
    .where('status', '=', 'published')
    .limit(2)
    .execute()
  const learner = await createUser(db())
  const held = await grant(db(), {
    userId: learner.id,
    right: { kind: 'course', courseId: first!.id },
    source: { kind: 'staff' },
  })
  const alsoHeld = await grant(db(), {
    userId: learner.id,
    right: { kind: 'course', courseId: second!.id },
    source: { kind: 'staff' },
  })
  await grant(db(), { userId: (await createUser(db())).id, right: { kind: 'premium' }, source: { kind: 'staff' } })
  // Kept for a minute: the figure moves on the next read after it.
  expect((await stats()).activeStudents).toBe(before.activeStudents)
  await later()
  expect((await stats()).activeStudents).toBe(before.activeStudents + 1)

  await revoke(db(), { grantId: held.id }, 'cancellation')
  await later()
  expect((await stats()).activeStudents).toBe(before.activeStudents + 1) // still holds the second course
  await revoke(db(), { grantId: alsoHeld.id }, 'cancellation')
  await later()
  expect((await stats()).activeStudents).toBe(before.activeStudents)
})

it('counts instructors with a published course, not those with drafts only', async () => {
  await later()
  const before = (await stats()).courseCreators
  const teaching = await db()
    .selectFrom('courses')
    .select('instructor_id')
    .distinct()
    .where('status', '=', 'published')
    .where('instructor_id', 'is not', null)
    .execute()
  expect(before).toBe(teaching.length)
  // A newly approved creator with a draft course.
  const course = await createCreatorCourse(db(), await createCreator(db()))
  await later()
  expect((await stats()).courseCreators).toBe(before) // a draft teaches no one yet
  await db().updateTable('courses').set({ status: 'published' }).where('id', '=', course.id).execute()
  await later()
  expect((await stats()).courseCreators).toBe(before + 1)
})

it('sums what creators hold, have available and were paid, per currency, and nothing of the platform’s', async () => {
  await later()
  const before = await stats()
  const total = (currency: string, from = before) =>
    from.creatorEarnings.find((row) => row.currency === currency)?.amountMinor ?? 0
  const creator = (await createUser(db())).id
  const sale = (currency: 'USD' | 'GBP', paid: number, kept: number, account: 'creator_pending' | 'creator_paid_out') =>
    post(db(), {
      key: `stats-test-${currency}`,
      kind: 'adjustment',
      source: 'stats test',
      entries: [
        { account: 'customer_payments', currency, amountMinor: -paid },
        { account, creatorId: creator, currency, amountMinor: kept },
        { account: 'platform_fees', currency, amountMinor: paid - kept },
      ],
    })
  await sale('USD', 10_000, 7_000, 'creator_pending')
  await sale('GBP', 5_000, 4_500, 'creator_paid_out')
  await later()
  const after = await stats()
  expect(total('USD', after) - total('USD')).toBe(7_000)
  expect(total('GBP', after) - total('GBP')).toBe(4_500)
})

it('writes headline figures that never claim more than the count', () => {
  expect([0, 120, 8_500, 9_999, 12_549, 999_999, 1_249_999, 125_000_000].map(headlineCount)).toEqual([
    '0',
    '120',
    '8,500',
    '9,999',
    '12.5K+',
    '999.9K+',
    '1.2M+',
    '125M+',
  ])
})
