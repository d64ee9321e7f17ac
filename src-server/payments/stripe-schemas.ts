// The shapes of what Stripe sends us, as far as the app reads them. A signed webhook proves who sent it, not what
// it holds: each event is parsed against these once, at the edge (stripe-event.ts); whatever does not fit is
// acknowledged and recorded as ignored, never applied. The Stripe adapter (stripe.ts) reads its answers with them too.
import { z } from 'zod'

const id = z.string().min(1).max(255)
const unixSeconds = z.number().int().nonnegative()

export const checkoutSessionSchema = z.object({
  id,
  url: z.string().nullish(),
  status: z.string().nullish(),
  payment_status: z.string(),
  client_reference_id: z.string().nullish(),
  metadata: z.record(z.string(), z.string()).nullish(),
  /** An id, or the expanded object. */
  subscription: z.union([id, z.object({ id })]).nullish(),
  payment_intent: z.union([id, z.object({ id })]).nullish(),
  amount_total: z.number().int().nonnegative().nullish(),
  /** What Stripe Tax computed (automatic_tax), in minor units; per jurisdiction when the breakdown is expanded. */
  total_details: z
    .object({
      amount_tax: z.number().int().nonnegative().nullish(),
      breakdown: z
        .object({
          taxes: z.array(
            z.object({
              amount: z.number().int().nonnegative(),
              rate: z.object({
                display_name: z.string().max(200).nullish(),
                jurisdiction: z.string().max(200).nullish(),
                percentage: z.number().nullish(),
              }),
            }),
          ),
        })
        .nullish(),
    })
    .nullish(),
  /** Subscription mode: the first invoice, which the payment went through. */
  invoice: z.union([id, z.object({ id })]).nullish(),
  customer: z.union([id, z.object({ id })]).nullish(),
})
export type CheckoutSession = z.infer<typeof checkoutSessionSchema>

const price = z.object({
  unit_amount: z.number().int().nonnegative().nullish(),
  currency: z.string().nullish(),
  recurring: z.object({ interval: z.string() }).nullish(),
})

export const subscriptionSchema = z.object({
  id,
  status: z.string(),
  customer: z.union([id, z.object({ id })]).nullish(),
  trial_end: unixSeconds.nullish(),
  /** Older API versions put the period on the subscription; newer ones on each item. */
  current_period_end: unixSeconds.nullish(),
  cancel_at_period_end: z.boolean().nullish(),
  cancel_at: unixSeconds.nullish(),
  ended_at: unixSeconds.nullish(),
  cancellation_details: z.object({ reason: z.string().nullish() }).nullish(),
  metadata: z.record(z.string(), z.string()).nullish(),
  items: z
    .object({
      data: z.array(z.object({ id: id.nullish(), current_period_end: unixSeconds.nullish(), price: price.nullish() })),
    })
    .nullish(),
})
export type StripeSubscription = z.infer<typeof subscriptionSchema>

const subscriptionRef = z.union([id, z.object({ id })])

export const invoiceSchema = z.object({
  id,
  status: z.string().nullish(),
  amount_paid: z.number().int().nonnegative().nullish(),
  amount_due: z.number().int().nonnegative().nullish(),
  /** What each discount (a plan coupon) took off this invoice. */
  total_discount_amounts: z.array(z.object({ amount: z.number().int().nonnegative() })).nullish(),
  /** The taxes in the total (Stripe Tax), since API 2025-03-31.basil. */
  total_taxes: z.array(z.object({ amount: z.number().int().nonnegative() })).nullish(),
  /** The tax in the total, in older API versions. */
  tax: z.number().int().nonnegative().nullish(),
  currency: z.string().nullish(),
  billing_reason: z.string().nullish(),
  hosted_invoice_url: z.string().nullish(),
  period_start: unixSeconds.nullish(),
  period_end: unixSeconds.nullish(),
  /** Older API versions. */
  subscription: subscriptionRef.nullish(),
  subscription_details: z.object({ metadata: z.record(z.string(), z.string()).nullish() }).nullish(),
  /** Newer API versions name the subscription here. */
  parent: z
    .object({
      subscription_details: z
        .object({ subscription: subscriptionRef.nullish(), metadata: z.record(z.string(), z.string()).nullish() })
        .nullish(),
    })
    .nullish(),
  lines: z
    .object({ data: z.array(z.object({ period: z.object({ start: unixSeconds, end: unixSeconds }).nullish() })) })
    .nullish(),
  status_transitions: z.object({ paid_at: unixSeconds.nullish() }).nullish(),
  /**
   * The payments of the invoice (since API 2025-03-31.basil): includable, so an event carries them only when Stripe
   * chose to; the webhook reads them before the event is applied (invoice-payment.ts) when it does not.
   */
  payments: z
    .object({
      data: z.array(
        z.object({
          status: z.string().nullish(),
          payment: z
            .object({
              type: z.string().nullish(),
              payment_intent: z.union([id, z.object({ id })]).nullish(),
              charge: z.union([id, z.object({ id })]).nullish(),
            })
            .nullish(),
        }),
      ),
    })
    .nullish(),
  /** The payment, in API versions before 2025-03-31.basil. */
  payment_intent: z.union([id, z.object({ id })]).nullish(),
  charge: z.union([id, z.object({ id })]).nullish(),
})
export type StripeInvoice = z.infer<typeof invoiceSchema>

/** The payment that paid an invoice: its payment intent, or its charge when Stripe made no intent. */
export interface InvoicePaymentRef {
  paymentIntentId: string | null
  chargeId: string | null
}

const refId = (ref: string | { id: string } | null | undefined) =>
  !ref ? null : typeof ref === 'string' ? ref : ref.id

/** The paid payment an invoice names (its `payments` when carried, or the older fields); null when it names none. */
export function paymentOfInvoice(invoice: StripeInvoice): InvoicePaymentRef | null {
  const paid = (invoice.payments?.data ?? []).find(
    (entry) => entry.status === 'paid' && (entry.payment?.payment_intent || entry.payment?.charge),
  )
  const paymentIntentId = refId(paid?.payment?.payment_intent ?? invoice.payment_intent)
  const chargeId = refId(paid?.payment?.charge ?? invoice.charge)
  return paymentIntentId || chargeId ? { paymentIntentId, chargeId } : null
}

export const refundSchema = z.object({
  id,
  amount: z.number().int().nonnegative(),
  status: z.string().nullish(),
  payment_intent: z.union([id, z.object({ id })]).nullish(),
  metadata: z.record(z.string(), z.string()).nullish(),
})
export type StripeRefund = z.infer<typeof refundSchema>

/** A Charge as charge.refunded sends it: what has been refunded so far, with the refunds listed. */
export const chargeSchema = z.object({
  id,
  payment_intent: z.union([id, z.object({ id })]).nullish(),
  amount: z.number().int().nonnegative(),
  amount_refunded: z.number().int().nonnegative(),
  refunds: z.object({ data: z.array(refundSchema) }).nullish(),
  /**
   * The invoice the charge paid: in API versions before 2025-03-31.basil; since then the webhook looks it up (the
   * invoice payment of its payment intent, invoice-payment.ts) when the payment is no order's or kept renewal's.
   */
  invoice: z.union([id, z.object({ id })]).nullish(),
})
export type StripeCharge = z.infer<typeof chargeSchema>

export const disputeSchema = z.object({
  id,
  status: z.string(),
  charge: z.union([id, z.object({ id })]).nullish(),
  payment_intent: z.union([id, z.object({ id })]).nullish(),
  amount: z.number().int().nonnegative().nullish(),
  /** The disputed charge's currency: the chargeback fee is converted into it. */
  currency: z.string().min(3).max(3).nullish(),
  reason: z.string().nullish(),
  /**
   * Not in Stripe's Dispute: the invoice the disputed payment paid, put in by the webhook (invoice-payment.ts) when the
   * payment is no order's or kept renewal's, so a renewal recorded without its payment is found.
   */
  invoice: z.union([id, z.object({ id })]).nullish(),
  /** The money the dispute moved (the amount withdrawn, and Stripe's chargeback fee), as the event carries them. */
  balance_transactions: z
    .array(
      z.object({
        id,
        fee: z.number().int(),
        currency: z.string().min(3).max(3),
        exchange_rate: z.number().positive().nullish(),
      }),
    )
    .nullish(),
})
export type StripeDispute = z.infer<typeof disputeSchema>

/** A connected (Express) account as Stripe returns it and account.updated carries it: what payouts depend on. */
export const connectedAccountSchema = z.object({
  id,
  charges_enabled: z.boolean(),
  payouts_enabled: z.boolean(),
  details_submitted: z.boolean(),
  requirements: z
    .object({
      currently_due: z.array(z.string()).nullish(),
      current_deadline: z.number().int().nullish(),
      disabled_reason: z.string().nullish(),
    })
    .nullish(),
})
export type StripeConnectedAccount = z.infer<typeof connectedAccountSchema>

/** A transfer to a connected account (and transfer.reversed's object). */
export const transferSchema = z.object({
  id,
  amount: z.number().int().nonnegative(),
  amount_reversed: z.number().int().nonnegative(),
  currency: z.string().min(3).max(3),
  destination: z.union([id, z.object({ id })]).nullish(),
  metadata: z.record(z.string(), z.string()).nullish(),
})
export type StripeTransfer = z.infer<typeof transferSchema>

/** The platform's balance (GET /v1/balance): what is available and pending per currency. */
const balanceAmount = z.object({ amount: z.number().int(), currency: z.string().min(3).max(3) })
export const balanceSchema = z.object({ available: z.array(balanceAmount), pending: z.array(balanceAmount) })
export type StripeBalance = z.infer<typeof balanceSchema>

/** Account links and login links: a one-time address of Stripe's hosted pages. */
export const hostedLinkSchema = z.object({ url: z.string().url() })

/** A balance transaction as Stripe returns it: the money a charge (or a dispute) moved, and Stripe's fee on it. */
export const balanceTransactionSchema = z.object({
  id,
  amount: z.number().int(),
  /** Stripe's fees in minor units of `currency` (the platform's settlement currency). */
  fee: z.number().int(),
  currency: z.string().min(3).max(3),
  /** Set when the charge was converted: charge currency × rate = settlement currency. */
  exchange_rate: z.number().positive().nullish(),
})
export type StripeBalanceTransaction = z.infer<typeof balanceTransactionSchema>

/** A payment intent read with latest_charge.balance_transaction expanded (either may still be missing, or an id). */
export const paymentIntentFeeSchema = z.object({
  id,
  latest_charge: z
    .union([
      id,
      z.object({
        id,
        currency: z.string().min(3).max(3),
        balance_transaction: z.union([id, balanceTransactionSchema]).nullish(),
      }),
    ])
    .nullish(),
})
