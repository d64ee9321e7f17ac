// Paid subscription invoices: the one place a paid renewal (or first charge, or proration) of a Stripe subscription
// is recorded, once per Stripe invoice, in the transaction of the webhook that reports it. The order history lists
// them under the plan's order. A paid one after the first charge (which the checkout's order invoiced) also gets a
// numbered tax invoice (invoices.ts, the orders' series). A month of a recurring service order is recorded the same
// way, under its service order instead of a membership (decision 0104).
import { formatMoney } from '../../src-shared/money.ts'
import type { DB } from '../kernel/db.ts'
import { recordSubscriptionInvoice } from './invoices.ts'
import { givenBackByInvoice } from './subscription-refunds.ts'

export interface PaidSubscriptionInvoice {
  subscriptionId: string
  userId: string
  stripeInvoiceId: string
  amountMinor: number
  /** What a plan coupon took off this invoice (Stripe's total_discount_amounts); amountMinor is after it. */
  discountMinor?: number
  /** The part of amountMinor that is tax (Stripe Tax's total_taxes): its invoice shows it, the Premium pool leaves it. */
  taxMinor?: number
  currency: string
  periodStart: Date | null
  periodEnd: Date | null
  billingReason: string | null
  paidAt: Date
  /** The payment that paid it (invoice-payment.ts): a refund of it (charge.refunded) finds the invoice by it. */
  payment?: { paymentIntentId: string | null; chargeId: string | null } | null
}

/** True the first time this invoice is recorded, false on a repeat. */
export async function recordPaidSubscriptionInvoice(trx: DB, invoice: PaidSubscriptionInvoice): Promise<boolean> {
  const inserted = await insertPaidInvoice(trx, { subscription_id: invoice.subscriptionId }, invoice)
  // Money taken: a numbered tax invoice in the same series as orders' (invoices.ts), in the same transaction. The
  // first charge (subscription_create) was taken by the checkout, whose order's invoice already covers it.
  const needsInvoice = invoice.amountMinor > 0 && invoice.billingReason !== 'subscription_create'
  if (inserted && needsInvoice) await numberSubscriptionInvoice(trx, invoice)
  return inserted
}

/**
 * The paid invoice's row, once per Stripe invoice, for a membership or a recurring service order (decision 0104); a
 * repeat keeps the payment if the row was recorded without it. True when inserted.
 */
async function insertPaidInvoice(
  trx: DB,
  owner: { subscription_id: string } | { service_order_id: string },
  invoice: Omit<PaidSubscriptionInvoice, 'subscriptionId'>,
): Promise<boolean> {
  const inserted = await trx
    .insertInto('subscription_invoices')
    .values({
      ...owner,
      user_id: invoice.userId,
      stripe_invoice_id: invoice.stripeInvoiceId,
      amount_minor: invoice.amountMinor,
      tax_minor: taxOf(invoice),
      currency: invoice.currency,
      period_start: invoice.periodStart,
      period_end: invoice.periodEnd,
      billing_reason: invoice.billingReason,
      paid_at: invoice.paidAt,
      stripe_payment_intent_id: invoice.payment?.paymentIntentId ?? null,
      stripe_charge_id: invoice.payment?.chargeId ?? null,
    })
    .onConflict((oc) => oc.column('stripe_invoice_id').doNothing())
    .returning('id')
    .executeTakeFirst()
  // Recorded before without its payment (Stripe could not say which, or another event got here first): kept now.
  if (!inserted && invoice.payment) await keepPaymentOf(trx, invoice.stripeInvoiceId, invoice.payment)
  return Boolean(inserted)
}

/** Keeps the payment of an invoice recorded without one (a known payment is never replaced). */
export async function keepPaymentOf(
  trx: DB,
  stripeInvoiceId: string,
  payment: { paymentIntentId: string | null; chargeId: string | null },
) {
  await trx
    .updateTable('subscription_invoices')
    .set({ stripe_payment_intent_id: payment.paymentIntentId, stripe_charge_id: payment.chargeId })
    .where('stripe_invoice_id', '=', stripeInvoiceId)
    .where('stripe_payment_intent_id', 'is', null)
    .where('stripe_charge_id', 'is', null)
    .execute()
}

/** The invoice's tax, never more than what was paid. */
const taxOf = (invoice: Pick<PaidSubscriptionInvoice, 'amountMinor' | 'taxMinor'>) =>
  Math.min(invoice.taxMinor ?? 0, invoice.amountMinor)

const periodText = (start: Date | null, end: Date | null) =>
  start && end ? `${start.toISOString().slice(0, 10)} to ${end.toISOString().slice(0, 10)}` : ''

const discountText = (invoice: PaidSubscriptionInvoice) =>
  invoice.discountMinor && invoice.discountMinor > 0
    ? `after a discount of ${formatMoney(invoice.discountMinor, invoice.currency === 'GBP' ? 'GBP' : 'USD')}`
    : ''

async function numberSubscriptionInvoice(trx: DB, invoice: PaidSubscriptionInvoice) {
  const plan = await trx
    .selectFrom('subscriptions as s')
    .innerJoin('plans as p', 'p.id', 's.plan_id')
    .select(['p.name', 's.billing_cycle'])
    .where('s.id', '=', invoice.subscriptionId)
    .executeTakeFirst()
  await recordSubscriptionInvoice(trx, {
    userId: invoice.userId,
    stripeInvoiceId: invoice.stripeInvoiceId,
    currency: invoice.currency,
    lines: [
      {
        title: plan ? `${plan.name} (${plan.billing_cycle})` : 'Membership',
        detail: [periodText(invoice.periodStart, invoice.periodEnd), discountText(invoice)].filter(Boolean).join(' · '),
        amountMinor: invoice.amountMinor - taxOf(invoice),
      },
    ],
    taxMinor: taxOf(invoice),
    paidAt: invoice.paidAt,
  })
}

/**
 * A paid month of a recurring service order billed by a subscription with no plan (monthly SEO management): recorded
 * with its payment among the paid subscription invoices (so a refund or a lost dispute of that payment finds it), and
 * a numbered tax invoice of its own, once per Stripe invoice. The first month was invoiced with the order that started
 * it, so only renewals get one here. False when the subscription bills no service order of ours.
 */
export async function recordServiceRenewalInvoice(
  trx: DB,
  renewal: Omit<PaidSubscriptionInvoice, 'subscriptionId' | 'userId'> & { stripeSubscriptionId: string },
): Promise<boolean> {
  const order = await trx
    .selectFrom('service_orders')
    .select(['id', 'user_id', 'title'])
    .where('stripe_subscription_id', '=', renewal.stripeSubscriptionId)
    .where('recurring', '=', true)
    .orderBy('created_at')
    .executeTakeFirst()
  if (!order) return false
  await insertPaidInvoice(trx, { service_order_id: order.id }, { ...renewal, userId: order.user_id })
  if (renewal.billingReason === 'subscription_create' || renewal.amountMinor <= 0) return true
  await recordSubscriptionInvoice(trx, {
    userId: order.user_id,
    stripeInvoiceId: renewal.stripeInvoiceId,
    currency: renewal.currency,
    lines: [
      {
        title: `${order.title} (monthly)`,
        detail: periodText(renewal.periodStart, renewal.periodEnd),
        amountMinor: renewal.amountMinor - taxOf(renewal),
      },
    ],
    taxMinor: taxOf(renewal),
    paidAt: renewal.paidAt,
  })
  return true
}

/**
 * A user's paid subscription invoices by the order that started each subscription, oldest first, each with the money
 * given back since: `refunded_minor` by refunds, `disputed_minor` taken back by a lost dispute.
 */
export async function listPaidInvoicesByOrder(db: DB, userId: string) {
  const invoices = await db
    .selectFrom('subscription_invoices as i')
    .innerJoin('subscriptions as s', 's.id', 'i.subscription_id')
    .select(['i.id', 's.order_id', 'i.amount_minor', 'i.currency', 'i.paid_at', 'i.period_end', 'i.billing_reason'])
    .where('i.user_id', '=', userId)
    .orderBy('i.paid_at')
    .execute()
  const given = await givenBackByInvoice(
    db,
    invoices.map((invoice) => invoice.id),
  )
  const rows = invoices.map(({ id, ...invoice }) => {
    const back = given.get(id)!
    return { ...invoice, refunded_minor: back.amountMinor - back.disputedMinor, disputed_minor: back.disputedMinor }
  })
  const byOrder = new Map<string, typeof rows>()
  for (const row of rows) {
    if (!row.order_id) continue
    byOrder.set(row.order_id, [...(byOrder.get(row.order_id) ?? []), row])
  }
  return byOrder
}

/**
 * What became of the money that paid a subscription's period at `at` (decision 0090): 'kept' when a paid invoice
 * covers `at` and not all of it came back, 'taken_back' when every paid invoice covering it came back in full (refunds,
 * or a lost dispute), 'free' when only unpaid ones cover it (a free trial), undefined when none is recorded. The first
 * charge was the checkout's order: its plan line (`planLineId`) refunded is that money given back (a lost dispute
 * refunds the lines too).
 */
export async function periodMoneyAt(
  db: DB,
  subscriptionId: string,
  at: Date,
  planLineId: string | null,
): Promise<'kept' | 'taken_back' | 'free' | undefined> {
  const covering = await db
    .selectFrom('subscription_invoices')
    .select(['id', 'amount_minor', 'billing_reason'])
    .where('subscription_id', '=', subscriptionId)
    .where('period_start', '<=', at)
    .where('period_end', '>', at)
    .execute()
  if (covering.length === 0) return undefined
  const paid = covering.filter((invoice) => invoice.amount_minor > 0)
  if (paid.length === 0) return 'free'
  const firstChargeReturned = planLineId
    ? Boolean(
        (await db.selectFrom('order_items').select('refunded_at').where('id', '=', planLineId).executeTakeFirst())
          ?.refunded_at,
      )
    : false
  const given = await givenBackByInvoice(
    db,
    paid.map((invoice) => invoice.id),
  )
  const returned = (invoice: (typeof paid)[number]) =>
    (invoice.billing_reason === 'subscription_create' && firstChargeReturned) ||
    given.get(invoice.id)!.amountMinor >= invoice.amount_minor
  return paid.every(returned) ? 'taken_back' : 'kept'
}
