// Two deliveries of charge.refunded about one paid subscription invoice (a renewal, or a recurring service's month:
// decisions 0089, 0104), on PostgreSQL: the earlier event lists the first refund, the later lists both. Each refund's
// tax part is the growth of the invoice's tax over everything given back so far (allocated once, by largest
// remainder), so it needs what earlier refunds stored. Both lock the invoice's row first (`lockRenewalOfPayment`),
// so the second sees the first's refund. Without the lock the later event reads nothing given back yet, skips the
// first refund (already recorded by the other) and stores the second's tax as if it were the only refund: the
// refunds' tax no longer adds up to the tax of what was given back (docs/concurrency-proofs.md).
import { afterAll, beforeAll, expect } from 'vitest'
import { reconcileSubscriptionInvoiceRefunds } from '../../../src-server/orders/subscription-refunds.ts'
import { allocate } from '../../../src-shared/money.ts'
import { createTestDatabase, type TestDatabase } from '../../support/db.ts'
import { createUser } from '../../support/factories.ts'
import { raceIt, whileRowHeld } from '../../support/race.ts'
import { paidServiceOrder } from '../../support/service-orders.ts'

let database: TestDatabase
const db = () => database.db

beforeAll(async () => {
  database = await createTestDatabase()
})
afterAll(() => database.close())

// 10.00 with 1.40 of tax: each 0.10 refunded carries 0.014 of tax, so two of them carry 0.01 each alone but 0.03 together.
const PAID = 1000
const TAX = 140
const noPlanToEnd = { endRefundedSubscription: async () => null }

raceIt('two charge.refunded of one month at once store each refund’s tax part once, adding up', async () => {
  for (let round = 0; round < 3; round++) {
    const buyer = await createUser(db())
    const serviceOrderId = await paidServiceOrder(db(), buyer.id, 'seo-management', 'Starter SEO Monthly')
    const paymentIntentId = `pi_race_${round}_${buyer.id}`
    const month = await db()
      .insertInto('subscription_invoices')
      .values({
        service_order_id: serviceOrderId,
        user_id: buyer.id,
        stripe_invoice_id: `in_race_${round}_${buyer.id}`,
        amount_minor: PAID,
        tax_minor: TAX,
        currency: 'USD',
        billing_reason: 'subscription_cycle',
        paid_at: new Date(),
        stripe_payment_intent_id: paymentIntentId,
      })
      .returning('id')
      .executeTakeFirstOrThrow()
    const first = { id: `re_a_${round}_${buyer.id}`, amount: 10 }
    const second = { id: `re_b_${round}_${buyer.id}`, amount: 10 }
    const deliver = (refunds: { id: string; amount: number }[]) =>
      db()
        .transaction()
        .execute((trx) =>
          reconcileSubscriptionInvoiceRefunds(
            trx,
            { paymentIntentId, chargeId: `ch_${paymentIntentId}`, refunds, at: new Date() },
            noPlanToEnd,
          ),
        )
    await whileRowHeld(
      db(),
      'subscription_invoices',
      month.id,
      () => Promise.all([deliver([first]), deliver([first, second])]),
      { waiters: 2 },
    )
    const recorded = await db()
      .selectFrom('subscription_invoice_refunds')
      .select(['stripe_refund_id', 'amount_minor', 'tax_minor'])
      .where('subscription_invoice_id', '=', month.id)
      .execute()
    expect(recorded.map((row) => row.stripe_refund_id).sort()).toEqual([first.id, second.id].sort())
    expect(recorded.reduce((sum, row) => sum + row.amount_minor, 0)).toBe(20)
    expect(recorded.reduce((sum, row) => sum + row.tax_minor, 0)).toBe(allocate(20, [PAID - TAX, TAX])[1])
  }
})
