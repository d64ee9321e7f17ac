// Creators' earnings in the money path (issue 31): a paid order credits each creator-owned course line with its
// net less the fee of the creator's plan at the moment of sale, pending for 30 days; a refund takes back exactly that
// share (from pending inside the window, from available after it, leaving a negative balance when already paid);
// replays change nothing, the ledger refuses edits and unbalanced postings, and always sums to zero.
import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { creatorBalances, ledgerTotals } from '../../../src-server/earnings/balances.ts'
import { post } from '../../../src-server/earnings/ledger.ts'
import { releaseDueHolds } from '../../../src-server/earnings/shares.ts'
import { markPaid } from '../../../src-server/flows/pay-order.ts'
import { refundOrder } from '../../../src-server/flows/refunds.ts'
import { createTestDatabase, type TestDatabase } from '../../support/db.ts'
import { createUser, type TestUser } from '../../support/factories.ts'
import { placeOrder } from '../../support/orders.ts'

let database: TestDatabase
let admin: TestUser
const db = () => database.db
const DAY = 86_400_000

beforeAll(async () => {
  database = await createTestDatabase()
  admin = await createUser(db(), { role: 'admin' })
})
afterAll(() => database.close())

let counter = 0
async function creatorCourse(ownerId: string, priceMinor: number) {
  const category = await db().selectFrom('categories').select('id').executeTakeFirstOrThrow()
  const id = `creator-course-${++counter}-${Date.now()}`
  await db()
    .insertInto('courses')
    .values({
      id,
      title: `Creator course ${counter}`,
      category_id: category.id,
      instructor_name: 'A Creator',
      price_minor: priceMinor,
      what_you_will_learn: '[]',
      requirements: '[]',
      status: 'published',
      owner_id: ownerId,
    })
    .execute()
  return { id, title: `Creator course ${counter}`, price_minor: priceMinor }
}

/** A live plan for the creator: a paid plan order gives the subscription and its Premium grant. */
async function holdPlan(userId: string, planId: 'basic' | 'pro' | 'enterprise') {
  const order = await db()
    .insertInto('orders')
    .values({
      user_id: userId,
      reference: `PLAN-${++counter}`,
      currency: 'USD',
      method: 'bank_transfer',
      status: 'pending',
      subtotal_minor: 1000,
      total_minor: 1000,
    })
    .returning('id')
    .executeTakeFirstOrThrow()
  await db()
    .insertInto('order_items')
    .values({
      order_id: order.id,
      kind: 'plan',
      plan_id: planId,
      billing_cycle: 'monthly',
      recurring_interval: 'month',
      item_key: `plan:${planId}`,
      title: planId,
      unit_price_minor: 1000,
    })
    .execute()
  expect(await markPaid(db(), order.id, { source: 'staff', actorId: admin.id })).toBe('fulfilled')
}

async function buy(courses: { id: string; title: string; price_minor: number }[]) {
  const buyer = await createUser(db())
  const orderId = await placeOrder(db(), {
    userId: buyer.id,
    courses,
    reference: `ORD-${++counter}`,
    method: 'bank_transfer',
  })
  expect(await markPaid(db(), orderId, { source: 'staff', actorId: admin.id })).toBe('fulfilled')
  return orderId
}

const lines = (orderId: string) =>
  db().selectFrom('order_items').select(['id', 'course_id']).where('order_id', '=', orderId).orderBy('title').execute()

const balance = async (creatorId: string) => (await creatorBalances(db(), creatorId))[0]

describe('creator earnings', () => {
  it("credits the owner's line with the net less the fee of the plan held at the sale, pending for 30 days", async () => {
    const creator = await createUser(db())
    await holdPlan(creator.id, 'pro')
    const course = await creatorCourse(creator.id, 4999)
    const houseCourse = await db()
      .selectFrom('courses')
      .select(['id', 'title', 'price_minor'])
      .where('owner_id', 'is', null)
      .where('price_minor', '>', 0)
      .executeTakeFirstOrThrow()
    const orderId = await buy([course, houseCourse])

    const shares = await db().selectFrom('earning_shares').selectAll().where('order_id', '=', orderId).execute()
    expect(shares).toHaveLength(1) // the house course credits nobody
    // Pro: 5 % of 49.99 is 2.4995, so the platform takes 2.50 and the creator 47.49 — nothing lost.
    expect(shares[0]).toMatchObject({
      creator_id: creator.id,
      net_minor: 4999,
      fee_basis_points: 500,
      platform_fee_minor: 250,
      creator_minor: 4749,
      plan_id: 'pro',
    })
    const held = shares[0]!.hold_until.getTime() - shares[0]!.created_at.getTime()
    expect(held).toBe(30 * DAY)
    expect(await balance(creator.id)).toEqual({
      currency: 'USD',
      pendingMinor: 4749,
      availableMinor: 0,
      paidOutMinor: 0,
    })

    // Paying the same order again (a webhook replay) credits nothing more.
    expect(await markPaid(db(), orderId, { source: 'staff', actorId: admin.id })).toBe('already_paid')
    expect((await balance(creator.id))?.pendingMinor).toBe(4749)
  })

  it('charges Basic’s fee to a creator without a live plan (a lapse keeps the course on sale)', async () => {
    const creator = await createUser(db())
    const orderId = await buy([await creatorCourse(creator.id, 1999)])
    const share = await db()
      .selectFrom('earning_shares')
      .selectAll()
      .where('order_id', '=', orderId)
      .executeTakeFirstOrThrow()
    expect(share).toMatchObject({ fee_basis_points: 1000, platform_fee_minor: 200, creator_minor: 1799, plan_id: null })
  })

  it('takes back exactly the share a refund reverses: from pending in the window, from available after it', async () => {
    const creator = await createUser(db())
    await holdPlan(creator.id, 'basic')
    const first = await creatorCourse(creator.id, 3333)
    const second = await creatorCourse(creator.id, 1001)
    const orderId = await buy([first, second])
    // Basic 10 %: 3333 → 333 + 3000; 1001 → 100 + 901.
    expect(await balance(creator.id)).toMatchObject({ pendingMinor: 3901, availableMinor: 0 })

    const [line1, line2] = await lines(orderId)
    await refundOrder(
      db(),
      {
        orderId,
        lineIds: [line1!.id],
        reference: 'BANK-REF-1',
        actor: { id: admin.id, email: admin.email },
      },
      null,
    )
    expect(await balance(creator.id)).toMatchObject({ pendingMinor: 901, availableMinor: 0 })

    // 31 days later the rest is released; a refund then takes it from available, which goes to 0.
    expect(await releaseDueHolds(db(), new Date(Date.now() + 31 * DAY))).toBeGreaterThanOrEqual(1)
    expect(await balance(creator.id)).toMatchObject({ pendingMinor: 0, availableMinor: 901 })
    // Releasing again moves nothing.
    await releaseDueHolds(db(), new Date(Date.now() + 31 * DAY))
    expect(await balance(creator.id)).toMatchObject({ pendingMinor: 0, availableMinor: 901 })

    // Say it was paid out: a later refund leaves a negative available balance for later earnings to repay.
    await post(db(), {
      key: `test-payout:${creator.id}`,
      kind: 'payout',
      source: 'test',
      entries: [
        { account: 'creator_available', creatorId: creator.id, currency: 'USD', amountMinor: -901 },
        { account: 'creator_paid_out', creatorId: creator.id, currency: 'USD', amountMinor: 901 },
      ],
    })
    await refundOrder(
      db(),
      {
        orderId,
        lineIds: [line2!.id],
        reference: 'BANK-REF-2',
        actor: { id: admin.id, email: admin.email },
      },
      null,
    )
    expect(await balance(creator.id)).toEqual({
      currency: 'USD',
      pendingMinor: 0,
      availableMinor: -901,
      paidOutMinor: 901,
    })
    // A refund was never taken twice: one reversal per line.
    const reversals = await db().selectFrom('ledger_transactions').select('key').where('kind', '=', 'refund').execute()
    expect(
      reversals.filter((r) => r.key === `reversal:${line1!.id}` || r.key === `reversal:${line2!.id}`),
    ).toHaveLength(2)
  })

  it('is append-only and balanced: the database refuses an edit, a delete and an unbalanced transaction', async () => {
    await expect(sql`update ledger_entries set amount_minor = amount_minor + 1`.execute(db())).rejects.toThrow(
      /append-only/,
    )
    await expect(sql`delete from ledger_transactions`.execute(db())).rejects.toThrow(/append-only/)
    await expect(
      db()
        .transaction()
        .execute(async (trx) => {
          const row = await trx
            .insertInto('ledger_transactions')
            .values({ key: 'unbalanced', kind: 'adjustment', source: 'test' })
            .returning('id')
            .executeTakeFirstOrThrow()
          await trx
            .insertInto('ledger_entries')
            .values({ transaction_id: row.id, account: 'platform_fees', currency: 'USD', amount_minor: 5 })
            .execute()
        }),
    ).rejects.toThrow(/does not balance/)
    await expect(
      post(db(), {
        key: 'unbalanced-in-code',
        kind: 'adjustment',
        source: 'test',
        entries: [{ account: 'platform_fees', currency: 'USD', amountMinor: 5 }],
      }),
    ).rejects.toThrow(/sum to 5/)
    for (const total of (await ledgerTotals(db())).values()) expect(total).toBe(0)
  })
})
