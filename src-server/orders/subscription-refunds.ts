// Refunds of Stripe's paid subscription invoices (renewals, prorations): Stripe pays them through their own payment,
// which no order holds, so charge.refunded about it (a refund made in the Stripe dashboard) is recorded here against
// the invoice whose payment it was (subscription-invoices.ts keeps it). Each refund once (Stripe's refund id), never
// more than the invoice took, with the part of it that was tax allocated once and stored: the invoice's tax in
// proportion (largest remainder over what has been refunded so far, so the refunds of a whole invoice give back
// exactly its tax). Each gets a credit note referencing the renewal's numbered invoice; the Premium pool of the
// refund's month takes back what it gave back net of tax (premium-revenue.ts), and the member gets the refund mail (a
// full refund of the current period's renewal also ends the plan: the caller's RenewalRefundEffects). A lost dispute of
// the payment is recorded the same way, under the dispute's id (recordRenewalChargeback). The invoice row stays locked
// meanwhile, so concurrent deliveries take turns. A paid month of a recurring service order is such an invoice too
// (decision 0104): its refund gets its credit note and mail the same way, ends nothing and is no Premium revenue.
import type { DocumentLine } from '../../db/types.ts'
import { allocate } from '../../src-shared/money.ts'
import type { DB } from '../kernel/db.ts'
import { issueSubscriptionCreditNote } from './invoices.ts'
import { sendRefundMail } from './refund-mail.ts'

export interface InvoiceChargeRefunds {
  paymentIntentId: string | null
  chargeId: string
  /** Oldest first. */
  refunds: readonly { id: string; amount: number }[]
  /** The Stripe invoice the payment paid, when the webhook could ask Stripe (a renewal recorded without it). */
  stripeInvoiceId?: string | null
  at: Date
}

/** The payment a refund or dispute is about (its charge, when Stripe names it). */
export interface RenewalPaymentRef {
  paymentIntentId: string | null
  chargeId: string | null
  stripeInvoiceId?: string | null
}

export type LockedRenewal = NonNullable<Awaited<ReturnType<typeof lockRenewalOfPayment>>>

/** Paid subscription invoices after the first (a renewal, or a service's month), with what names them; locked. */
function lockedRenewals(trx: DB) {
  return (
    trx
      .selectFrom('subscription_invoices as si')
      .leftJoin('subscriptions as s', 's.id', 'si.subscription_id')
      .leftJoin('plans as p', 'p.id', 's.plan_id')
      // A month of a recurring service order (decision 0104): its order is the one that bought the service.
      .leftJoin('service_orders as so', 'so.id', 'si.service_order_id')
      .leftJoin('orders as o', (join) => join.on((eb) => eb('o.id', '=', eb.fn.coalesce('s.order_id', 'so.order_id'))))
      .leftJoin('invoices as inv', 'inv.stripe_invoice_id', 'si.stripe_invoice_id')
      .select(['si.id', 'si.stripe_invoice_id', 'si.amount_minor', 'si.tax_minor', 'si.currency', 'si.paid_at'])
      .select([
        'si.period_start',
        'si.period_end',
        'p.name as plan_name',
        's.billing_cycle',
        'so.title as service_title',
      ])
      .select(['si.subscription_id', 'si.service_order_id', 'si.user_id', 'o.id as order_id'])
      .select(['o.reference as order_reference', 'inv.number as invoice_number', 'si.stripe_payment_intent_id'])
      .where('si.stripe_invoice_id', 'is not', null)
      // The first invoice's payment is the checkout's, which its order holds (refunds.ts).
      .where((eb) => eb.or([eb('si.billing_reason', 'is', null), eb('si.billing_reason', '!=', 'subscription_create')]))
      .orderBy('si.paid_at')
      .limit(1)
      .forUpdate('si')
  )
}

/**
 * The subscription invoice (a renewal, not the checkout's first) a payment paid, locked; undefined when no invoice of
 * ours was paid by it.
 */
export async function lockRenewalOfPayment(trx: DB, charge: RenewalPaymentRef) {
  if (!charge.paymentIntentId && !charge.chargeId) return undefined
  const byPayment = await lockedRenewals(trx)
    .where((eb) =>
      eb.or([
        ...(charge.paymentIntentId ? [eb('si.stripe_payment_intent_id', '=', charge.paymentIntentId)] : []),
        ...(charge.chargeId ? [eb('si.stripe_charge_id', '=', charge.chargeId)] : []),
      ]),
    )
    .executeTakeFirst()
  if (byPayment || !charge.stripeInvoiceId) return byPayment
  const byInvoice = await lockRenewalOfInvoice(trx, charge.stripeInvoiceId)
  if (byInvoice) {
    // Kept, so the next refund of the same payment finds it without asking Stripe.
    await trx
      .updateTable('subscription_invoices')
      .set({ stripe_payment_intent_id: charge.paymentIntentId, stripe_charge_id: charge.chargeId })
      .where('id', '=', byInvoice.id)
      .where('stripe_payment_intent_id', 'is', null)
      .where('stripe_charge_id', 'is', null)
      .execute()
  }
  return byInvoice
}

/** The renewal (or service month) a Stripe invoice paid, locked; undefined when none of ours. */
export const lockRenewalOfInvoice = (trx: DB, stripeInvoiceId: string) =>
  lockedRenewals(trx).where('si.stripe_invoice_id', '=', stripeInvoiceId).executeTakeFirst()

/** Whether a payment is one an order or a renewal of ours keeps (else the webhook asks Stripe which invoice it paid). */
export async function isKnownPayment(
  db: DB,
  payment: { paymentIntentId: string; chargeId: string | null },
): Promise<boolean> {
  const order = await db
    .selectFrom('orders')
    .select('id')
    .where('stripe_payment_intent_id', '=', payment.paymentIntentId)
    .executeTakeFirst()
  if (order) return true
  const renewal = await db
    .selectFrom('subscription_invoices')
    .select('id')
    .where((eb) =>
      eb.or([
        eb('stripe_payment_intent_id', '=', payment.paymentIntentId),
        ...(payment.chargeId ? [eb('stripe_charge_id', '=', payment.chargeId)] : []),
      ]),
    )
    .executeTakeFirst()
  return Boolean(renewal)
}

/** What a renewal's refund does beyond orders/, handed in by the flow (flows/stripe-after-purchase.ts). */
export interface RenewalRefundEffects {
  /**
   * Everything the current period's renewal took has been given back: the plan ends now, as a refunded plan order's
   * does. Returns the Stripe subscription to cancel after commit (null when it had ended already).
   */
  endRefundedSubscription(trx: DB, subscriptionId: string, at: Date): Promise<string | null>
}

/**
 * charge.refunded of a subscription invoice's payment: every refund Stripe lists, recorded once, each with its credit
 * note and the member's refund mail. The refund that gives back the rest of the current period's renewal ends the plan
 * (its Stripe subscription is returned for the webhook to cancel after commit); a partial refund, or one of an older
 * period (the member had it), changes nothing else. Null when the payment paid no subscription invoice of ours.
 */
export async function reconcileSubscriptionInvoiceRefunds(
  trx: DB,
  charge: InvoiceChargeRefunds,
  effects: RenewalRefundEffects,
): Promise<{ endedStripeSubscriptions: string[] } | null> {
  const invoice = await lockRenewalOfPayment(trx, charge)
  if (!invoice) return null
  const given = await givenBackSoFar(trx, invoice.id)
  const ended: string[] = []
  for (const refund of charge.refunds) {
    if (given.stripeRefundIds.has(refund.id) || refund.amount <= 0) continue
    const recorded = await recordRenewalRefund(trx, invoice, given, refund, charge.at)
    if (!recorded) continue
    // The whole of the period the member is in now given back: as a refunded plan order, the plan ends. A service's
    // month refunded ends nothing: the order goes on until staff cancel it or the buyer stops the subscription.
    const whole = given.amountMinor >= invoice.amount_minor
    const plan = invoice.subscription_id
    const ends = plan !== null && whole && (await isCurrentPeriod(trx, plan, invoice))
    const stripeSubscription = ends && plan ? await effects.endRefundedSubscription(trx, plan, charge.at) : null
    if (stripeSubscription) ended.push(stripeSubscription)
  }
  return { endedStripeSubscriptions: ended }
}

/**
 * A Stripe refund of a locked renewal recorded (never more than is left), with its credit note and the member's refund
 * mail; null when it was recorded before or nothing is left. `given` is what came back so far, brought up to date.
 */
export async function recordRenewalRefund(
  trx: DB,
  invoice: LockedRenewal,
  given: GivenBack,
  refund: { id: string; amount: number },
  at: Date,
) {
  const recorded = await recordGivenBack(trx, invoice, given, { stripeRefundId: refund.id }, refund.amount, at)
  if (!recorded) return null
  // The mail of a refunded plan order, naming the renewal: the plan's order is what the member finds it under.
  const reference = invoice.order_reference ?? invoice.invoice_number ?? invoice.stripe_invoice_id!
  await sendRefundMail(
    trx,
    { user_id: invoice.user_id, reference, currency: invoice.currency },
    { ...recorded, lines: [{ title: renewalTitle(invoice) }] },
  )
  return recorded
}

/**
 * A lost dispute of a renewal's payment: the money the bank took back (capped at what is left of the invoice) is
 * recorded once under the dispute's id, with its tax part and a credit note, and leaves the Premium pool like a refund.
 * No mail (the member's bank told them). Returns whether nothing of the invoice is left.
 */
export async function recordRenewalChargeback(
  trx: DB,
  invoice: LockedRenewal,
  dispute: { disputeId: string; amountMinor: number | null; at: Date },
): Promise<{ whole: boolean }> {
  const given = await givenBackSoFar(trx, invoice.id)
  const left = invoice.amount_minor - given.amountMinor
  if (!given.disputeIds.has(dispute.disputeId) && left > 0) {
    await recordGivenBack(
      trx,
      invoice,
      given,
      { disputeId: dispute.disputeId },
      dispute.amountMinor ?? left,
      dispute.at,
    )
  }
  return { whole: given.amountMinor >= invoice.amount_minor }
}

export interface GivenBack {
  amountMinor: number
  taxMinor: number
  /** The part of amountMinor a lost dispute took back (the rest was refunded). */
  disputedMinor: number
  stripeRefundIds: Set<string>
  disputeIds: Set<string>
}

/** What came back so far of each of these subscription invoices (refunds and lost disputes); none is absent. */
export async function givenBackByInvoice(db: DB, invoiceIds: readonly string[]): Promise<Map<string, GivenBack>> {
  const given = new Map<string, GivenBack>(
    invoiceIds.map((id) => [
      id,
      { amountMinor: 0, taxMinor: 0, disputedMinor: 0, stripeRefundIds: new Set(), disputeIds: new Set() },
    ]),
  )
  if (invoiceIds.length === 0) return given
  const rows = await db
    .selectFrom('subscription_invoice_refunds')
    .select(['subscription_invoice_id', 'stripe_refund_id', 'dispute_id', 'amount_minor', 'tax_minor'])
    .where('subscription_invoice_id', 'in', invoiceIds)
    .execute()
  for (const row of rows) {
    const invoice = given.get(row.subscription_invoice_id)!
    invoice.amountMinor += row.amount_minor
    invoice.taxMinor += row.tax_minor
    if (row.stripe_refund_id) invoice.stripeRefundIds.add(row.stripe_refund_id)
    if (row.dispute_id) {
      invoice.disputeIds.add(row.dispute_id)
      invoice.disputedMinor += row.amount_minor
    }
  }
  return given
}

/** What came back so far of one subscription invoice. */
export const givenBackSoFar = async (trx: DB, invoiceId: string) =>
  (await givenBackByInvoice(trx, [invoiceId])).get(invoiceId)!

/**
 * Records money given back of a locked invoice (a refund or a lost dispute), never more than is left, with its tax part
 * and credit note; `given` is brought up to date. Null when nothing was recorded (nothing left, or already recorded).
 */
async function recordGivenBack(
  trx: DB,
  invoice: LockedRenewal,
  given: GivenBack,
  source: { stripeRefundId: string } | { disputeId: string },
  requested: number,
  at: Date,
): Promise<{ amountMinor: number; creditNoteNumber: string | null } | null> {
  const left = invoice.amount_minor - given.amountMinor
  if (requested <= 0 || left <= 0) return null
  const amount = Math.min(requested, left)
  // The tax of everything given back so far, split once by largest remainder; this one's is the growth.
  const weights = [invoice.amount_minor - invoice.tax_minor, invoice.tax_minor]
  const taxSoFar = allocate(given.amountMinor + amount, weights)[1]!
  const tax = Math.min(amount, Math.max(0, taxSoFar - given.taxMinor))
  const dispute = 'disputeId' in source
  const row = await trx
    .insertInto('subscription_invoice_refunds')
    .values({
      subscription_invoice_id: invoice.id,
      stripe_refund_id: dispute ? null : source.stripeRefundId,
      dispute_id: dispute ? source.disputeId : null,
      amount_minor: amount,
      tax_minor: tax,
      currency: invoice.currency,
      refunded_at: at,
    })
    .onConflict((oc) => oc.column(dispute ? 'dispute_id' : 'stripe_refund_id').doNothing())
    .returning('id')
    .executeTakeFirst()
  if (!row) return null
  if (dispute) given.disputeIds.add(source.disputeId)
  else given.stripeRefundIds.add(source.stripeRefundId)
  given.amountMinor += amount
  given.taxMinor += tax
  const creditNoteNumber = await issueSubscriptionCreditNote(trx, {
    id: row.id,
    stripeInvoiceId: invoice.stripe_invoice_id!,
    amountMinor: amount,
    lines: [creditLine(invoice, amount, dispute)],
    at,
  })
  return { amountMinor: amount, creditNoteNumber }
}

/** Whether the invoice paid the period the member is in: no later renewal of the subscription has been paid. */
async function isCurrentPeriod(trx: DB, subscriptionId: string, invoice: LockedRenewal): Promise<boolean> {
  const later = await trx
    .selectFrom('subscription_invoices')
    .select('id')
    .where('subscription_id', '=', subscriptionId)
    .where('id', '!=', invoice.id)
    .where('billing_reason', '=', 'subscription_cycle')
    .where('paid_at', '>', invoice.paid_at)
    .executeTakeFirst()
  return !later
}

const day = (at: Date | null) => at?.toISOString().slice(0, 10)

type Billed = { plan_name: string | null; billing_cycle: string | null; service_title: string | null }

/** What the renewal billed, as its numbered invoice names it (subscription-invoices.ts). */
const planTitle = (invoice: Billed) =>
  invoice.service_title
    ? `${invoice.service_title} (monthly)`
    : invoice.plan_name
      ? `${invoice.plan_name} (${invoice.billing_cycle})`
      : 'Membership'

const periodOf = (invoice: { period_start: Date | null; period_end: Date | null }) =>
  invoice.period_start && invoice.period_end ? `${day(invoice.period_start)} to ${day(invoice.period_end)}` : ''

/** "Basic (monthly), 2026-12-09 to 2027-01-09": the renewal as the refund mail lists it. */
function renewalTitle(invoice: LockedRenewal): string {
  const period = periodOf(invoice)
  return period ? `${planTitle(invoice)}, ${period}` : planTitle(invoice)
}

function creditLine(
  invoice: Billed & { period_start: Date | null; period_end: Date | null },
  amount: number,
  dispute: boolean,
): DocumentLine {
  return {
    title: `${dispute ? 'Chargeback (dispute lost)' : 'Refund'}: ${planTitle(invoice)}`,
    detail: periodOf(invoice),
    quantity: 1,
    unitMinor: amount,
    amountMinor: amount,
  }
}
