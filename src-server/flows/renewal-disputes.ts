// Disputes of a renewal's payment (a Stripe subscription invoice after the first, which no order holds; decision
// 0089), done as an order dispute does to a plan order (disputes.ts): the dispute is remembered against the renewal
// (order_disputes.subscription_invoice_id); charge.dispute.created withholds the subscription's Premium (ledger
// revocation 'dispute') and alerts staff; a won dispute gives back what it withheld (a plan that ended meanwhile stays
// ended); a lost one keeps it withheld and records the money the bank took back among the renewal's refunds (credit
// note, out of the Premium pool of that month, net of its tax part), and when that is all that was left of the renewal
// the plan ends and its Stripe subscription is cancelled after commit. No creator line was sold, so no chargeback fee
// is charged to creators (as for a plan order's plan line). A paid month of a recurring service order (decision 0104)
// is disputed the same way, except that it withholds nothing and ends nothing: staff are told, and a lost dispute's
// money gets its credit note.
import type { Transaction } from 'kysely'
import type { Database } from '../../db/types.ts'
import { restore, revoke } from '../access/ledger.ts'
import * as clock from '../kernel/clock.ts'
import type { DB } from '../kernel/db.ts'
import { type LockedRenewal, lockRenewalOfPayment, recordRenewalChargeback } from '../orders/subscription-refunds.ts'
import { endRefundedSubscription, settleSubscription } from '../subscriptions/state.ts'
import {
  alertStaffOfDispute,
  type DisputeEvent,
  type DisputeOutcome,
  findDispute,
  rememberClosedDispute,
  rememberOpenDispute,
} from './disputes.ts'

const renewalOf = (trx: DB, dispute: DisputeEvent) =>
  lockRenewalOfPayment(trx, {
    paymentIntentId: dispute.paymentIntentId,
    chargeId: dispute.chargeId ?? null,
    stripeInvoiceId: dispute.stripeInvoiceId,
  })

export async function openRenewalDispute(trx: Transaction<Database>, dispute: DisputeEvent): Promise<DisputeOutcome> {
  const renewal = await renewalOf(trx, dispute)
  if (!renewal) return 'not_ours'
  const known = await findDispute(trx, dispute.disputeId)
  if (known?.closed) return 'already_closed'
  if (known) return 'applied'
  await rememberOpenDispute(trx, dispute, { subscription_invoice_id: renewal.id })
  // A service's month (decision 0104) grants no access to withhold: staff decide whether the service goes on.
  if (renewal.subscription_id) await revoke(trx, { subscriptionId: renewal.subscription_id }, 'dispute')
  const reference = renewal.order_reference ?? renewal.invoice_number ?? renewal.stripe_invoice_id!
  const invoice = renewal.invoice_number ?? renewal.stripe_invoice_id
  await alertStaffOfDispute(
    trx,
    {
      reference,
      payment: renewal.subscription_id
        ? `The card payment of a renewal of order ${reference} (invoice ${invoice})`
        : `The card payment of a month of ${renewal.service_title ?? 'a service'}, order ${reference} (invoice ${invoice})`,
      withheld: renewal.subscription_id ? "The member's Premium" : null,
    },
    dispute,
  )
  return 'applied'
}

export async function closeRenewalDispute(
  trx: Transaction<Database>,
  dispute: DisputeEvent,
): Promise<{ outcome: DisputeOutcome; endedStripeSubscriptions: string[] }> {
  const none: string[] = []
  const renewal = await renewalOf(trx, dispute)
  if (!renewal) return { outcome: 'not_ours', endedStripeSubscriptions: none }
  const known = await findDispute(trx, dispute.disputeId)
  if (known?.closed) return { outcome: 'already_closed', endedStripeSubscriptions: none }
  await rememberClosedDispute(trx, dispute, { subscription_invoice_id: renewal.id })
  const subscriptionId = renewal.subscription_id
  if (!subscriptionId) {
    // A service's month: a lost dispute's money is recorded (credit note); nothing was withheld, nothing ends.
    if (dispute.status === 'lost') await recordRenewalChargeback(trx, renewal, lostMoney(dispute))
    return { outcome: 'applied', endedStripeSubscriptions: none }
  }
  // Only what this dispute withheld comes back, and not while another dispute of the same plan still holds it.
  if (dispute.status === 'won' && known && !(await otherOpenDispute(trx, renewal, dispute.disputeId))) {
    await restore(trx, { subscriptionId }, { reason: 'dispute' })
    // A plan that ended while the dispute was open stays ended (settling revokes again for the end's own reason).
    await settleSubscription(trx, subscriptionId)
  }
  if (dispute.status !== 'lost') return { outcome: 'applied', endedStripeSubscriptions: none }
  // Withheld now if the 'created' never came; the money taken back recorded once.
  await revoke(trx, { subscriptionId }, 'dispute')
  const lost = lostMoney(dispute)
  const { whole } = await recordRenewalChargeback(trx, renewal, lost)
  const ended = whole ? await endRefundedSubscription(trx, subscriptionId, lost.at) : null
  return { outcome: 'applied', endedStripeSubscriptions: ended ? [ended] : none }
}

/** The money a lost dispute took back, now. */
const lostMoney = (dispute: DisputeEvent) => ({
  disputeId: dispute.disputeId,
  amountMinor: dispute.amountMinor ?? null,
  at: clock.now(),
})

/** An open dispute of the plan's order or of another of its renewals. */
async function otherOpenDispute(trx: DB, renewal: LockedRenewal, disputeId: string): Promise<boolean> {
  const row = await trx
    .selectFrom('order_disputes as d')
    .leftJoin('subscription_invoices as si', 'si.id', 'd.subscription_invoice_id')
    .select('d.id')
    .where('d.closed', '=', false)
    .where('d.id', '!=', disputeId)
    .where((eb) =>
      eb.or([
        eb('si.subscription_id', '=', renewal.subscription_id),
        ...(renewal.order_id ? [eb('d.order_id', '=', renewal.order_id)] : []),
      ]),
    )
    .executeTakeFirst()
  return Boolean(row)
}
