// The tax on credit notes under random partial refunds made in Stripe's dashboard (decision 0115): each refund's tax
// is the growth of one largest-remainder split of everything given back so far (as subscription-refunds.ts does for
// renewals), never a fresh split of each refund on its own, whose rounding adds up: refunds of 3 from a 20 % tax
// order each gave back 0 of tax (3 × 5/6 = 2.5 and 0.5, the tie to the price), so the tax given back lagged behind
// the money given back by a cent a refund, and the refund completing the order carried all of it.
// After every history: the credit notes' tax so far is exactly allocate(given back so far, [price, tax])'s tax part,
// never more than the invoice's tax; every credit note's lines plus its tax make its total; all of it once refunded.
import fc from 'fast-check'
import { afterAll, beforeAll, expect, it } from 'vitest'
import type { PaymentsConfig } from '../../../src-server/payments/config.ts'
import { allocate } from '../../../src-shared/money.ts'
import { createUser } from '../../support/factories.ts'
import type { FakeStripe } from '../../support/fake-stripe.ts'
import { type PaymentsServer, payCartByCard, startPaymentsServer } from '../../support/payments-server.ts'
import { pricedCourses, shopCaller } from '../../support/shop.ts'

let shop: PaymentsServer
let fake: FakeStripe
let payments: PaymentsConfig
const db = () => shop.database.db

beforeAll(async () => {
  shop = await startPaymentsServer({ stripeTax: true })
  ;({ fake, payments } = shop)
})
afterAll(() => shop.close())

async function creditNotesOf(orderId: string) {
  return db()
    .selectFrom('credit_notes as cn')
    .innerJoin('refunds as r', 'r.id', 'cn.refund_id')
    .select(['cn.total_minor', 'cn.tax_minor', 'cn.lines'])
    .where('r.order_id', '=', orderId)
    .orderBy('cn.number')
    .execute()
}

let offset = 0

it('gives back the tax of everything refunded so far, split once, whatever the partial refunds', async () => {
  await fc.assert(
    fc.asyncProperty(
      fc.integer({ min: 1, max: 3 }),
      fc.array(fc.integer({ min: 1, max: 40 }), { minLength: 1, maxLength: 8 }),
      fc.boolean(),
      async (count, amounts, finish) => {
        const user = await createUser(db())
        const caller = await shopCaller(db(), user, payments)
        const courses = await pricedCourses(db(), { count, offset: offset % 6 })
        offset += count
        for (const course of courses) await caller.cart.add({ kind: 'course', courseId: course.id })
        const orderId = await payCartByCard(fake, caller)
        const order = await db()
          .selectFrom('orders')
          .select(['captured_minor', 'tax_minor', 'stripe_payment_intent_id'])
          .where('id', '=', orderId)
          .executeTakeFirstOrThrow()
        const invoice = await db()
          .selectFrom('invoices')
          .select('tax_minor')
          .where('order_id', '=', orderId)
          .executeTakeFirstOrThrow()
        expect(invoice.tax_minor).toBeGreaterThan(0)
        const weights = [order.captured_minor - invoice.tax_minor, invoice.tax_minor]
        let given = 0
        const steps = [...amounts]
        if (finish) steps.push(Number.POSITIVE_INFINITY)
        for (const wanted of steps) {
          const amount = Math.min(wanted, order.captured_minor - given)
          if (amount <= 0) break
          fake.dashboardRefund(order.stripe_payment_intent_id!, amount)
          expect(await fake.deliver('charge.refunded', fake.chargeOf(order.stripe_payment_intent_id!))).toBe(200)
          given += amount
          const notes = await creditNotesOf(orderId)
          const taxSoFar = notes.reduce((sum, note) => sum + note.tax_minor, 0)
          expect(notes.reduce((sum, note) => sum + note.total_minor, 0)).toBe(given)
          expect(taxSoFar).toBe(allocate(given, weights)[1])
          for (const note of notes) {
            const lines = note.lines as unknown as { amountMinor: number }[]
            expect(lines.reduce((sum, line) => sum + line.amountMinor, 0) + note.tax_minor).toBe(note.total_minor)
          }
        }
      },
    ),
    { numRuns: 12, seed: 1215 },
  )
})
