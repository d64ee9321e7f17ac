// Stripe's fee on a paid card order, taken from its creators' shares (decision 0047). The fee is read from Stripe
// (payment intent → latest charge → balance transaction) outside any transaction, allocated over the order's lines
// pro rata by net, and each creator line's part is posted once (earnings/processor-fees.ts). It runs right after the
// paid session's webhook committed, and the `earnings.processor-fees` sweep retries what Stripe could not answer
// then (an outage, a charge not settled yet): the sale itself was never held up by it.

import { allocateByNet, hasFeeDue, ordersWithFeeDue, takeProcessorFees } from '../earnings/processor-fees.ts'
import type { DB } from '../kernel/db.ts'
import { paidOfLine } from '../orders/paid-line.ts'
import { stripeRefsOfOrder } from '../orders/payment-refs.ts'
import { listOrderLines } from '../orders/repository.ts'
import type { StripeApi } from '../payments/stripe.ts'

export type FeeOutcome = 'taken' | 'not_due' | 'not_known'

/** How far back the sweep looks: the refund window (a share older than it has been released long since). */
export const FEE_SWEEP_DAYS = 30

/** Takes the order's processor fee when Stripe reports it; idempotent (a line is charged once). */
export async function settleProcessorFees(db: DB, stripe: StripeApi, orderId: string): Promise<FeeOutcome> {
  if (!(await hasFeeDue(db, orderId))) return 'not_due'
  const order = await stripeRefsOfOrder(db, orderId)
  if (!order) return 'not_due'
  const intent =
    order.stripe_payment_intent_id ??
    (order.stripe_session_id ? await stripe.paymentIntentOfSession(order.stripe_session_id) : null)
  if (!intent) return 'not_known'
  const fee = await stripe.processorFeeOfPayment(intent)
  if (!fee || fee.currency !== order.currency) return 'not_known'
  const lines = await listOrderLines(db, orderId)
  const parts = allocateByNet(
    fee.feeMinor,
    // By net: what each line was paid after its stored coupon share, as its creators' share is credited on.
    lines.map((line) => ({ id: line.id, netMinor: paidOfLine(line) })),
  )
  const taken = await db
    .transaction()
    .execute((trx) => takeProcessorFees(trx, orderId, parts, `stripe:${fee.balanceTransactionId}`))
  return taken > 0 ? 'taken' : 'not_due'
}

type Log = { warn: (details: object, message: string) => void }

/** The sweep: every order paid in the last 30 days whose fee is still due; a Stripe failure leaves it for next time. */
export async function settleDueProcessorFees(
  db: DB,
  stripe: StripeApi | null,
  now: Date,
  log?: Log,
): Promise<{ taken: number; waiting: number; failed: number }> {
  const counts = { taken: 0, waiting: 0, failed: 0 }
  if (!stripe) return counts
  const since = new Date(now.getTime() - FEE_SWEEP_DAYS * 86_400_000)
  for (const orderId of await ordersWithFeeDue(db, since)) {
    try {
      const outcome = await settleProcessorFees(db, stripe, orderId)
      if (outcome === 'taken') counts.taken++
      else if (outcome === 'not_known') counts.waiting++
    } catch (error) {
      counts.failed++
      log?.warn({ err: error, orderId }, 'could not read the processor fee of a paid order')
    }
  }
  return counts
}
