// The free-trial orders migration (decision 0089) on orders paid before it: a paid order with a line in its free trial
// gets the total Stripe took, and one whose money was all refunded while that line was never given back reads
// Partially refunded; other orders are left as they were.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { up } from '../../../db/migrations/2026_12_12_0100_free_trial_order_totals.ts'
import type { DatabaseHandle } from '../../../src-server/kernel/db.ts'
import { createTestDatabase } from '../../support/db.ts'
import { createUser } from '../../support/factories.ts'
import { placeOrder } from '../../support/orders.ts'
import { pricedCourses } from '../../support/shop.ts'

let database: DatabaseHandle
beforeAll(async () => {
  database = await createTestDatabase()
})
afterAll(() => database.close())

describe('2026_12_12_0100_free_trial_order_totals', () => {
  it('gives trial orders the total they took and keeps an order with a running trial line Partially refunded', async () => {
    const db = database.db
    const user = await createUser(db)
    const [course] = await pricedCourses(db, { count: 1 })
    const coursePrice = course!.price_minor
    const planPrice = 999
    /** A course and a Basic plan line (in its free trial when `trial`), paid by card: Stripe took the course only. */
    const order = async (reference: string, trial: boolean, status: 'paid' | 'refunded', refundedPlan = false) => {
      const id = await placeOrder(db, { userId: user.id, courseId: course!.id, reference, totalMinor: coursePrice })
      const taken = trial ? coursePrice : coursePrice + planPrice
      const refunded = status === 'refunded' ? taken : 0
      await db
        .updateTable('orders')
        .set({ status, total_minor: coursePrice + planPrice, captured_minor: taken, refunded_minor: refunded })
        .where('id', '=', id)
        .execute()
      await db
        .insertInto('order_items')
        .values({
          order_id: id,
          kind: 'plan',
          plan_id: 'basic',
          billing_cycle: 'monthly',
          recurring_interval: 'month',
          item_key: 'plan:basic:monthly',
          title: 'Basic plan',
          unit_price_minor: planPrice,
          free_trial: trial,
          ...(refundedPlan ? { refunded_at: new Date() } : {}),
        })
        .execute()
      if (refundedPlan) {
        const refund = await db
          .insertInto('refunds')
          .values({ order_id: id, amount_minor: refunded, method: 'manual', reference: 'R' })
          .returning('id')
          .executeTakeFirstOrThrow()
        await db.updateTable('order_items').set({ refund_id: refund.id }).where('order_id', '=', id).execute()
      }
      return id
    }
    const trialPaid = await order('SF-MIG-TRIAL', true, 'paid')
    const trialRefunded = await order('SF-MIG-TRIAL-REFUNDED', true, 'refunded')
    const trialAllRefunded = await order('SF-MIG-TRIAL-ALL', true, 'refunded', true)
    const paidPlan = await order('SF-MIG-PAID', false, 'paid')

    await up(db)
    const rows = await db
      .selectFrom('orders')
      .select(['id', 'status', 'total_minor'])
      .where('id', 'in', [trialPaid, trialRefunded, trialAllRefunded, paidPlan])
      .execute()
    const byId = new Map(rows.map((row) => [row.id, { status: row.status, total: row.total_minor }]))
    expect(byId.get(trialPaid)).toEqual({ status: 'paid', total: coursePrice })
    expect(byId.get(trialRefunded)).toEqual({ status: 'partially_refunded', total: coursePrice })
    // Every line given back (the plan's too): wholly refunded, as it was.
    expect(byId.get(trialAllRefunded)).toEqual({ status: 'refunded', total: coursePrice })
    expect(byId.get(paidPlan)).toEqual({ status: 'paid', total: coursePrice + planPrice })
  })
})
