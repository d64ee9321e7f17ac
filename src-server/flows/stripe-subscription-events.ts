// Stripe's subscription and invoice events. Each one adds facts to our subscription (subscriptions/state.ts
// derives the state from them), so redeliveries and any order of arrival end in the same state:
//   customer.subscription.created|updated|deleted|trial_will_end  the subscription as Stripe has it now
//   invoice.paid                                                  a period paid (recorded for the order history)
//   invoice.payment_failed|payment_action_required                a period not paid: past due, and an e-mail
// An event about a subscription we have not recorded yet (it overtook checkout.session.completed) still names our
// order in its metadata: the order is paid first, through the same exactly-once path as the checkout event.
// A subscription may also bill recurring service orders (monthly SEO management): each paid invoice opens a period
// of them, and its end closes them (service-orders/recurring.ts). One subscription may bill a plan and a service.
import type { Transaction } from 'kysely'
import type { BillingCycle, Database } from '../../db/types.ts'
import { BILLING_CYCLES } from '../../src-shared/cart.ts'
import { recordPaidSubscriptionInvoice, recordServiceRenewalInvoice } from '../orders/subscription-invoices.ts'
import { type Applied, type EventContext, ignored, PROCESSED } from '../payments/event-outcome.ts'
import type { EventOf } from '../payments/stripe-event.ts'
import { paymentOfInvoice, type StripeInvoice, type StripeSubscription } from '../payments/stripe-schemas.ts'
import { periodsForPaidInvoice, subscriptionChanged } from '../service-orders/recurring.ts'
import { sendPaymentProblemMail, sendTrialEndingMail } from '../subscriptions/mails.ts'
import { applyInvoiceOutcome, applyStripeSnapshot } from '../subscriptions/state.ts'
import { markPaid } from './pay-order.ts'

type Trx = Transaction<Database>
const LIVE_STRIPE_STATUSES = ['trialing', 'active', 'past_due', 'unpaid']

const seconds = (value: number | null | undefined) => (value ? new Date(value * 1000) : null)
const idOf = (ref: string | { id: string } | null | undefined) => (!ref ? null : typeof ref === 'string' ? ref : ref.id)

/**
 * Our subscription row for a Stripe subscription id, locked; when there is none yet but the metadata names an order
 * of ours that Stripe's checkout created it for, that order is paid first (which starts the subscription).
 * The lock comes first so one subscription's events take turns from the start: an invoice's row in
 * subscription_invoices holds a KEY SHARE lock on the subscription and its number holds the invoice counter, so two
 * events that took those before locking the subscription deadlocked each other (bench:webhook saw 500s).
 */
async function ourSubscription(trx: Trx, stripeId: string, metadata: Record<string, string> | null | undefined) {
  const find = () =>
    trx
      .selectFrom('subscriptions')
      .select(['id', 'user_id', 'status', 'duplicate_of'])
      .where('stripe_subscription_id', '=', stripeId)
      .orderBy('created_at')
      .limit(1)
      .forUpdate()
      .executeTakeFirst()
  const found = await find()
  if (found || !metadata?.orderId) return found
  const order = await trx
    .selectFrom('orders')
    .select(['id', 'reference'])
    .where('id', '=', metadata.orderId)
    .where('method', '=', 'card')
    .where('stripe_session_id', 'is not', null)
    .executeTakeFirst()
  if (!order || order.reference !== metadata.reference) return undefined
  await markPaid(trx, order.id, { source: 'stripe', stripeSubscriptionId: stripeId })
  return find()
}

/** customer.subscription.created|updated|deleted|trial_will_end */
export async function subscriptionEvent(
  trx: Trx,
  { type, object: sub }: EventOf<'subscription'>,
  context: EventContext,
): Promise<Applied> {
  const deleted = type === 'customer.subscription.deleted'
  // A subscription that never went live (incomplete) creates nothing of ours.
  const ours = await ourSubscription(
    trx,
    sub.id,
    deleted || LIVE_STRIPE_STATUSES.includes(sub.status) ? sub.metadata : null,
  )
  const snapshot = snapshotOf(sub, deleted, context.createdAt)
  const services = await subscriptionChanged(
    trx,
    sub.id,
    {
      ended: Boolean(snapshot.endedAt) || ['canceled', 'incomplete_expired'].includes(snapshot.status),
      endsAt: snapshot.cancelAtPeriodEnd ? (seconds(sub.cancel_at) ?? snapshot.periodEnd) : null,
    },
    context,
    context.createdAt,
  )
  if (!ours) return services ? PROCESSED : ignored('not_ours')
  if (ours.duplicate_of) return duplicate(sub.id, deleted || !LIVE_STRIPE_STATUSES.includes(sub.status))
  await applyStripeSnapshot(trx, ours.id, snapshot)
  if (type === 'customer.subscription.trial_will_end') await sendTrialEndingMail(trx, ours.id, context.publicUrl)
  return PROCESSED
}

/**
 * A second subscription of a member who already has a live one gives nothing; while Stripe still runs it, the
 * webhook asks Stripe to cancel it after this event commits (a later event about it asks again if that failed).
 * Money it took is for staff to refund.
 */
function duplicate(stripeId: string, ended: boolean): Applied {
  return ended ? PROCESSED : { outcome: 'processed', followUp: { cancelSubscriptions: [stripeId] } }
}

export function snapshotOf(sub: StripeSubscription, deleted: boolean, eventAt: Date) {
  const item = sub.items?.data[0]
  const periodEnd = seconds(item?.current_period_end ?? sub.current_period_end)
  const status = deleted ? 'canceled' : sub.status
  const cycle = sub.metadata?.billingCycle
  const planId = sub.metadata?.planId
  return {
    eventAt,
    status,
    periodEnd,
    trialEnd: seconds(sub.trial_end),
    cancelAtPeriodEnd: Boolean(sub.cancel_at_period_end || sub.cancel_at),
    endedAt: seconds(sub.ended_at) ?? (deleted ? eventAt : null),
    endReason: sub.cancellation_details?.reason === 'payment_failed' ? ('lapse' as const) : ('cancellation' as const),
    customerId: idOf(sub.customer),
    plan:
      planId && cycle && (BILLING_CYCLES as readonly string[]).includes(cycle)
        ? { planId, billingCycle: cycle as BillingCycle }
        : null,
    price:
      item?.price?.unit_amount != null && item.price.currency
        ? { amountMinor: item.price.unit_amount, currency: item.price.currency.toUpperCase() }
        : null,
  }
}

function invoiceSubscription(invoice: StripeInvoice) {
  const details = invoice.parent?.subscription_details
  return {
    stripeId: idOf(details?.subscription ?? invoice.subscription),
    metadata: details?.metadata ?? invoice.subscription_details?.metadata ?? null,
  }
}

/** The end of the period an invoice bills: its subscription line's period (the invoice's own period is the last). */
function billedPeriod(invoice: StripeInvoice) {
  const periods = (invoice.lines?.data ?? []).flatMap((line) => (line.period ? [line.period] : []))
  const end = Math.max(...periods.map((p) => p.end), invoice.period_end ?? 0)
  const start = periods.length ? Math.min(...periods.map((p) => p.start)) : (invoice.period_start ?? null)
  return { start: seconds(start), end: seconds(end) }
}

/** invoice.paid */
export async function invoicePaid(trx: Trx, { object: invoice }: EventOf<'invoice'>, context: EventContext) {
  const { stripeId, metadata } = invoiceSubscription(invoice)
  if (!stripeId) return ignored('not_ours') // a one-off invoice: checkout's own payments are handled by session
  const ours = await ourSubscription(trx, stripeId, metadata)
  const period = billedPeriod(invoice)
  const services =
    period.end !== null &&
    (await periodsForPaidInvoice(trx, stripeId, { id: invoice.id, startsAt: period.start, endsAt: period.end }))
  const paid = {
    stripeInvoiceId: invoice.id,
    amountMinor: invoice.amount_paid ?? 0,
    discountMinor: (invoice.total_discount_amounts ?? []).reduce((sum, d) => sum + d.amount, 0),
    taxMinor: invoice.total_taxes ? invoice.total_taxes.reduce((sum, t) => sum + t.amount, 0) : (invoice.tax ?? 0),
    currency: (invoice.currency ?? 'usd').toUpperCase(),
    periodStart: period.start,
    periodEnd: period.end,
    billingReason: invoice.billing_reason ?? null,
    paidAt: seconds(invoice.status_transitions?.paid_at) ?? context.createdAt,
    payment: paymentOfInvoice(invoice),
  }
  if (!ours) {
    if (!services) return ignored('not_ours')
    await recordServiceRenewalInvoice(trx, { ...paid, stripeSubscriptionId: stripeId })
    return PROCESSED
  }
  if (ours.duplicate_of) return duplicate(stripeId, false)
  if (!period.end) return ignored('malformed')
  await recordPaidSubscriptionInvoice(trx, { ...paid, subscriptionId: ours.id, userId: ours.user_id })
  await applyInvoiceOutcome(trx, ours.id, { paid: true, periodEnd: period.end })
  return PROCESSED
}

/** invoice.payment_failed|payment_action_required */
export async function invoiceNotPaid(trx: Trx, { object: invoice }: EventOf<'invoice'>, context: EventContext) {
  const { stripeId, metadata } = invoiceSubscription(invoice)
  if (!stripeId) return ignored('not_ours')
  const ours = await ourSubscription(trx, stripeId, metadata)
  if (!ours) return ignored('not_ours')
  if (ours.duplicate_of) return duplicate(stripeId, false)
  const period = billedPeriod(invoice)
  if (!period.end) return ignored('malformed')
  await applyInvoiceOutcome(trx, ours.id, { paid: false, periodEnd: period.end })
  await sendPaymentProblemMail(trx, ours.id, invoice.id, context.publicUrl)
  return PROCESSED
}
