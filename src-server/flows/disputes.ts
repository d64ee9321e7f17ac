// Card disputes (chargebacks). charge.dispute.created withholds everything the order gave (ledger revocation
// 'dispute'), marks it Disputed and alerts staff; charge.dispute.closed gives the access back when the dispute is
// won (only what the dispute took: lines refunded before stay refunded). A lost dispute leaves the order Disputed
// and its access revoked, and records the money the bank took back as a refund of method 'dispute' with its credit
// note (the whole remainder ends a plan's subscription too and cancels the service orders it paid for: decision 0132;
// part of it is flagged for staff to say which lines it took back, as a partial dashboard refund is: decision 0026),
// and Stripe's chargeback fee is charged to the creators of the lines it gave back. Each dispute is remembered, so a 'closed' that
// overtakes its 'created' is not undone. While a dispute is open the creators' shares of the order are held back from
// payouts (decision 0125); its close ends the hold, after a loss has taken back what it took.

import type { Transaction } from 'kysely'
import type { Database } from '../../db/types.ts'
import { type GrantSelector, restore, revoke } from '../access/ledger.ts'
import { endDisputeHold, holdSharesForDispute } from '../earnings/dispute-holds.ts'
import { allocateByNet, takeChargebackFees } from '../earnings/processor-fees.ts'
import * as clock from '../kernel/clock.ts'
import type { DB } from '../kernel/db.ts'
import { enqueueMail } from '../mail/outbox.ts'
import { type LockedOrder, lockOrder } from '../orders/lock.ts'
import { paidOfLine } from '../orders/paid-line.ts'
import {
  applyRefund,
  lockOrderOfPaymentIntent,
  needsLineAssignment,
  stripeSubscriptionsEndedBy,
} from '../orders/refunds.ts'
import { listOrderLines } from '../orders/repository.ts'
import { moveOrder } from '../orders/transitions.ts'
import type { MailLinks } from '../service-orders/mails.ts'
import { settleSubscription } from '../subscriptions/state.ts'
import { adminEmails } from '../team/members.ts'
import { refundEffects } from './refunds.ts'

export interface DisputeEvent {
  disputeId: string
  paymentIntentId: string
  /** The disputed charge (a renewal's payment may be kept by its charge). */
  chargeId?: string | null
  /** The Stripe invoice the payment paid, when the webhook asked Stripe (a renewal recorded without its payment). */
  stripeInvoiceId?: string | null
  status: string
  reason?: string | null
  /** The disputed amount (what a lost dispute takes back). */
  amountMinor?: number | null
  /** Stripe's chargeback fee (its balance transactions' fees); charged to the disputed lines' creators when lost. */
  feeMinor?: number | null
}

export type DisputeOutcome = 'applied' | 'not_ours' | 'already_closed'

export async function openDispute(trx: Transaction<Database>, dispute: DisputeEvent): Promise<DisputeOutcome> {
  const order = await lockOrderOfPaymentIntent(trx, dispute.paymentIntentId)
  if (!order) return 'not_ours'
  const known = await findDispute(trx, dispute.disputeId)
  if (known?.closed) return 'already_closed'
  if (!known) await rememberOpenDispute(trx, dispute, { order_id: order.id })
  await holdSharesForDispute(trx, order.id, dispute.disputeId)
  if (await moveOrder(trx, order.id, 'dispute')) {
    for (const selector of await grantsOfOrder(trx, order.id)) await revoke(trx, selector, 'dispute')
    await alertStaff(trx, order, dispute)
  }
  return 'applied'
}

export async function closeDispute(
  trx: Transaction<Database>,
  dispute: DisputeEvent,
  links: MailLinks,
): Promise<{ outcome: DisputeOutcome; endedStripeSubscriptions: string[] }> {
  const none: string[] = []
  const order = await lockOrderOfPaymentIntent(trx, dispute.paymentIntentId)
  if (!order) return { outcome: 'not_ours', endedStripeSubscriptions: none }
  const known = await findDispute(trx, dispute.disputeId)
  if (known?.closed) return { outcome: 'already_closed', endedStripeSubscriptions: none }
  await rememberClosedDispute(trx, dispute, { order_id: order.id })
  if (dispute.status === 'won' && order.status === 'disputed') {
    for (const selector of await grantsOfOrder(trx, order.id)) {
      await restore(trx, selector, { reason: 'dispute' })
      // A plan that ended while the dispute was open stays ended: settling it revokes again, for the end's own
      // reason, the Premium just given back (its end found the grant revoked already and changed nothing).
      if ('subscriptionId' in selector) await settleSubscription(trx, selector.subscriptionId)
    }
    const current = (await lockOrder(trx, order.id))!
    await moveOrder(trx, order.id, current.refunded_minor > 0 ? 'winDisputeAfterRefund' : 'winDispute')
  }
  const ended = dispute.status === 'lost' ? await recordLoss(trx, order, dispute, links) : none
  // After the loss's reversal: a share it took back stays taken; the others are the creators' again.
  await endDisputeHold(trx, dispute.disputeId)
  return { outcome: 'applied', endedStripeSubscriptions: ended }
}

/**
 * A lost dispute: the access stays withheld (withheld now if its 'created' never came) and the money the bank took
 * back is recorded, capped at what is left of the payment: the whole remainder gives back every open line; part of
 * it names none and waits for staff to say which lines it took (decision 0026). Returns the Stripe subscriptions it
 * ended.
 */
async function recordLoss(trx: Transaction<Database>, order: LockedOrder, dispute: DisputeEvent, links: MailLinks) {
  if (await moveOrder(trx, order.id, 'dispute')) {
    for (const selector of await grantsOfOrder(trx, order.id)) await revoke(trx, selector, 'dispute')
  }
  const current = (await lockOrder(trx, order.id))!
  const left = current.captured_minor - current.refunded_minor
  const amount = Math.min(dispute.amountMinor ?? left, left)
  if (amount <= 0) return []
  const open = (await listOrderLines(trx, order.id)).filter((line) => !line.refund_id)
  const whole = amount >= left
  const lines = whole ? open : []
  const ended = whole ? await stripeSubscriptionsEndedBy(trx, order.id, open) : []
  await applyRefund(
    trx,
    current,
    {
      amount,
      lines,
      method: 'dispute',
      reference: dispute.disputeId,
      stripeRefundId: null,
      reason: `Dispute lost (${dispute.reason ?? 'no reason given'})`,
      actor: null,
      // Part of the payment names no lines: flagged for staff to say which the bank took back, as a partial dashboard
      // refund is (then its lines' shares are reversed, their services cancelled: refund-assignment.ts).
      needsLineAssignment: needsLineAssignment(lines, open),
    },
    refundEffects(links),
  )
  // The chargeback fee over the lines given back, by net: each creator line's part is its creators' (decision 0047).
  if (whole && dispute.feeMinor && dispute.feeMinor > 0) {
    const parts = allocateByNet(
      dispute.feeMinor,
      open.map((line) => ({ id: line.id, netMinor: paidOfLine(line) })),
    )
    await takeChargebackFees(trx, dispute.disputeId, parts)
  }
  return ended
}

export function findDispute(trx: DB, id: string) {
  return trx.selectFrom('order_disputes').select(['id', 'closed']).where('id', '=', id).executeTakeFirst()
}

/** The payment an order dispute or a renewal dispute is against. */
type Disputed = { order_id: string } | { subscription_invoice_id: string }

/** Remembers a dispute seen for the first time, open, against an order's or a renewal's payment. */
export async function rememberOpenDispute(trx: DB, dispute: DisputeEvent, disputed: Disputed) {
  await trx
    .insertInto('order_disputes')
    .values({ id: dispute.disputeId, ...disputed, status: dispute.status })
    .execute()
}

/** Remembers an order's or a renewal's dispute closed, with its last status, whether or not its 'created' came. */
export async function rememberClosedDispute(trx: DB, dispute: DisputeEvent, disputed: Disputed) {
  await trx
    .insertInto('order_disputes')
    .values({ id: dispute.disputeId, ...disputed, status: dispute.status, closed: true })
    .onConflict((oc) => oc.column('id').doUpdateSet({ status: dispute.status, closed: true, updated_at: clock.now() }))
    .execute()
}

/** Everything an order gave: its lines' grants and the Premium of the subscriptions it started. */
async function grantsOfOrder(trx: DB, orderId: string): Promise<GrantSelector[]> {
  const subscriptions = await trx.selectFrom('subscriptions').select('id').where('order_id', '=', orderId).execute()
  return [{ orderId }, ...subscriptions.map((row) => ({ subscriptionId: row.id }))]
}

function alertStaff(trx: DB, order: LockedOrder, dispute: DisputeEvent) {
  return alertStaffOfDispute(
    trx,
    {
      reference: order.reference,
      payment: `The card payment of order ${order.reference}`,
      withheld: "The buyer's access to the order",
    },
    dispute,
  )
}

/** Staff hear of a new dispute by e-mail: which payment, and what was withheld meanwhile (null: nothing was). */
export async function alertStaffOfDispute(
  trx: DB,
  subject: { reference: string; payment: string; withheld: string | null },
  dispute: DisputeEvent,
) {
  const meanwhile = subject.withheld
    ? `${subject.withheld} has been withheld until the dispute is decided.`
    : 'Nothing has been withheld: the service goes on unless you cancel it.'
  for (const email of await adminEmails(trx)) {
    await enqueueMail(trx, {
      kind: 'order_disputed',
      to: email,
      subject: `Payment disputed: order ${subject.reference}`,
      text: `${subject.payment} is disputed (${dispute.reason ?? 'no reason given'}; Stripe dispute ${dispute.disputeId}).\n\n${meanwhile} Respond in the Stripe dashboard.`,
    })
  }
}
