// Refunds of Stripe's paid subscription invoices (renewals, prorations): Stripe pays them through their own payment,
// which no order holds, so charge.refunded about it (a refund made in the Stripe dashboard) is recorded here against
// the invoice whose payment it was (subscription-invoices.ts keeps it). Each refund once (Stripe's refund id), never
// more than the invoice took, with the part of it that was tax allocated once and stored: the invoice's tax in
// proportion (largest remainder over what has been refunded so far, so the refunds of a whole invoice give back
// exactly its tax). Each gets a credit note referencing the renewal's numbered invoice; the Premium pool of the
// refund's month takes back what it gave back net of tax (premium-revenue.ts). The invoice row stays locked meanwhile,
// so concurrent deliveries take turns.
import type { DocumentLine } from '../../db/types.ts'
import { allocate } from '../../src-shared/money.ts'
import type { DB } from '../kernel/db.ts'
import { issueSubscriptionCreditNote } from './invoices.ts'

export interface InvoiceChargeRefunds {
  paymentIntentId: string | null
  chargeId: string
  /** Oldest first. */
  refunds: readonly { id: string; amount: number }[]
  /** The Stripe invoice the payment paid, when the webhook could ask Stripe (a renewal recorded without it). */
  stripeInvoiceId?: string | null
  at: Date
}

/** The subscription invoice a payment paid, locked; undefined when no invoice of ours was paid by it. */
async function lockInvoiceOfPayment(trx: DB, charge: InvoiceChargeRefunds) {
  const base = () =>
    trx
      .selectFrom('subscription_invoices as si')
      .innerJoin('subscriptions as s', 's.id', 'si.subscription_id')
      .leftJoin('plans as p', 'p.id', 's.plan_id')
      .select(['si.id', 'si.stripe_invoice_id', 'si.amount_minor', 'si.tax_minor', 'si.currency'])
      .select(['si.period_start', 'si.period_end', 'p.name as plan_name', 's.billing_cycle'])
      .where('si.stripe_invoice_id', 'is not', null)
      // The first invoice's payment is the checkout's, which its order holds (refunds.ts).
      .where((eb) => eb.or([eb('si.billing_reason', 'is', null), eb('si.billing_reason', '!=', 'subscription_create')]))
      .orderBy('si.paid_at')
      .limit(1)
      .forUpdate('si')
  const byPayment = await base()
    .where((eb) =>
      eb.or([
        ...(charge.paymentIntentId ? [eb('si.stripe_payment_intent_id', '=', charge.paymentIntentId)] : []),
        eb('si.stripe_charge_id', '=', charge.chargeId),
      ]),
    )
    .executeTakeFirst()
  if (byPayment || !charge.stripeInvoiceId) return byPayment
  const byInvoice = await base().where('si.stripe_invoice_id', '=', charge.stripeInvoiceId).executeTakeFirst()
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

/** Whether a payment is one an order or a renewal of ours keeps (else the webhook asks Stripe which invoice it paid). */
export async function isKnownPayment(db: DB, payment: { paymentIntentId: string; chargeId: string }): Promise<boolean> {
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
        eb('stripe_charge_id', '=', payment.chargeId),
      ]),
    )
    .executeTakeFirst()
  return Boolean(renewal)
}

/**
 * charge.refunded of a subscription invoice's payment: every refund Stripe lists, recorded once. False when the
 * payment paid no subscription invoice of ours.
 */
export async function reconcileSubscriptionInvoiceRefunds(trx: DB, charge: InvoiceChargeRefunds): Promise<boolean> {
  const invoice = await lockInvoiceOfPayment(trx, charge)
  if (!invoice) return false
  const known = await trx
    .selectFrom('subscription_invoice_refunds')
    .select(['stripe_refund_id', 'amount_minor', 'tax_minor'])
    .where('subscription_invoice_id', '=', invoice.id)
    .execute()
  const seen = new Set(known.map((row) => row.stripe_refund_id))
  let refunded = known.reduce((sum, row) => sum + row.amount_minor, 0)
  let taxRefunded = known.reduce((sum, row) => sum + row.tax_minor, 0)
  const weights = [invoice.amount_minor - invoice.tax_minor, invoice.tax_minor]
  for (const refund of charge.refunds) {
    const left = invoice.amount_minor - refunded
    if (seen.has(refund.id) || refund.amount <= 0 || left <= 0) continue
    const amount = Math.min(refund.amount, left)
    // The tax of everything refunded so far, split once by largest remainder; this refund's is the growth.
    const taxSoFar = allocate(refunded + amount, weights)[1]!
    const tax = Math.min(amount, Math.max(0, taxSoFar - taxRefunded))
    const row = await trx
      .insertInto('subscription_invoice_refunds')
      .values({
        subscription_invoice_id: invoice.id,
        stripe_refund_id: refund.id,
        amount_minor: amount,
        tax_minor: tax,
        currency: invoice.currency,
        refunded_at: charge.at,
      })
      .onConflict((oc) => oc.column('stripe_refund_id').doNothing())
      .returning('id')
      .executeTakeFirst()
    if (!row) continue
    seen.add(refund.id)
    refunded += amount
    taxRefunded += tax
    await issueSubscriptionCreditNote(trx, {
      id: row.id,
      stripeInvoiceId: invoice.stripe_invoice_id!,
      amountMinor: amount,
      lines: [creditLine(invoice, amount)],
      at: charge.at,
    })
  }
  return true
}

const day = (at: Date | null) => at?.toISOString().slice(0, 10)

function creditLine(
  invoice: { plan_name: string | null; billing_cycle: string; period_start: Date | null; period_end: Date | null },
  amount: number,
): DocumentLine {
  const period =
    invoice.period_start && invoice.period_end ? `${day(invoice.period_start)} to ${day(invoice.period_end)}` : ''
  return {
    title: `Refund: ${invoice.plan_name ? `${invoice.plan_name} (${invoice.billing_cycle})` : 'Membership'}`,
    detail: period,
    quantity: 1,
    unitMinor: amount,
    amountMinor: amount,
  }
}
