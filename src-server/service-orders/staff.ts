// What staff do to a service order (the role is checked by the router's staffProcedure): pick it up, deliver,
// cancel, assign. Each change, its history row, its audit record and the buyer's e-mail commit together. A cancel
// also refunds the order's line for it through the refunds flow (orders/refunds.ts) in the same transaction; a
// recurring order's month in progress after the first is refunded on the Stripe invoice that paid it (decision 0104).

import { canBeAssigned } from '../../src-shared/service-orders.ts'
import * as audit from '../audit/repository.ts'
import * as clock from '../kernel/clock.ts'
import type { DB } from '../kernel/db.ts'
import { DomainError } from '../kernel/errors.ts'
import { auditTransition, type Viewer, visibleOrder } from './access.ts'
import { assertDeliverable, type Delivery, recordDelivery } from './delivery.ts'
import { type MailLinks, mailStatusToBuyer } from './mails.ts'
import { purchaseLineOf } from './repository.ts'
import { moveServiceOrder, SERVICE_ORDER_TRANSITIONS, type ServiceOrderTransition } from './transitions.ts'

const wrongStatus = () => new DomainError('conflict', 'This action is not available in the order’s current status')

async function staffMove(
  db: DB,
  actor: Viewer,
  id: string,
  transition: ServiceOrderTransition,
  links: MailLinks,
  work: (trx: DB) => Promise<Parameters<typeof moveServiceOrder>[4]> = async () => ({}),
) {
  await visibleOrder(db, id, actor, 'staff')
  const to = SERVICE_ORDER_TRANSITIONS[transition].to
  await db.transaction().execute(async (trx) => {
    const changes = await work(trx)
    const from = await moveServiceOrder(trx, id, transition, actor.id, changes)
    if (!from) throw wrongStatus()
    await auditTransition(trx, actor, `service_order.${transition}`, id, from, to)
    await mailStatusToBuyer(trx, id, to, links)
  })
}

export function startWork(db: DB, actor: Viewer, id: string, links: MailLinks) {
  return staffMove(db, actor, id, 'start', links)
}

/** What the refunds flow answers (orders/refunds.ts: RefundResult). */
export interface RefundResult {
  refundId: string
  amountMinor: number
  status: 'partially_refunded' | 'refunded'
  creditNoteNumber: string | null
}

/**
 * The money side of a cancel, given by the caller (the router wires the refunds flow and Stripe in: this folder
 * does not import orders/ or payments/, which import it).
 */
export interface CancelOptions {
  /** Give the money for this order's line back (default). */
  refund: boolean
  /** The PayPal or bank refund's reference (a card payment is refunded through Stripe). */
  reference?: string
  /** Refunds order lines in the caller's transaction (orders/refunds.ts refundOrder with its gateway). */
  refundLines: ((trx: DB, request: LineRefund) => Promise<RefundResult>) | null
  /** Ends a Stripe subscription now; null when card payments are not configured. */
  endSubscription: ((stripeSubscriptionId: string) => Promise<void>) | null
  /**
   * Refunds what is left of a month a Stripe invoice paid (a recurring order's month after the first) through Stripe,
   * in the caller's transaction, with its credit note and the buyer's mail; null when nothing of it is left.
   */
  refundMonth?: ((trx: DB, request: MonthRefund) => Promise<MonthRefundResult | null>) | null
}

export interface MonthRefund {
  stripeInvoiceId: string
  reason: string
  actor: Viewer
}

export interface MonthRefundResult {
  amountMinor: number
  creditNoteNumber: string | null
}

export interface LineRefund {
  orderId: string
  lineIds: string[]
  reference?: string
  reason: string
  actor: Viewer
  /** For the e-mail of another service order the refund may cancel (one that gives back the rest of the order). */
  links: MailLinks
}

/** Why a cancel refunded nothing, in words for the dialog's answer. */
type NoRefund = 'not_requested' | 'nothing_paid' | 'already_refunded'

/**
 * Cancels the order and, unless told not to, refunds its order line (a full refund of that line: credit note,
 * e-mail and audit are the refunds flow's) in the same transaction, so a failed refund cancels nothing. A recurring
 * order's subscription is ended at Stripe at once, after the refund of the month in progress (its latest paid month:
 * the order's line for the first, else what Stripe's invoice for it took); earlier months stay paid (a Stripe
 * dashboard refund credits one: decision 0104).
 */
export async function cancelServiceOrder(
  db: DB,
  actor: Viewer,
  id: string,
  links: MailLinks,
  options: CancelOptions = { refund: false, refundLines: null, endSubscription: null },
  now = clock.now(),
): Promise<{ refund: RefundResult | (MonthRefundResult & { month: number }) | null; noRefund: NoRefund | null }> {
  const order = await visibleOrder(db, id, actor, 'staff')
  const reason = `Service order cancelled: ${order.title}`
  const outcome = await db.transaction().execute(async (trx) => {
    const from = await moveServiceOrder(trx, id, 'cancel', actor.id, { cancelled_at: now, due_at: null })
    if (!from) throw wrongStatus()
    await auditTransition(trx, actor, 'service_order.cancel', id, from, 'cancelled')
    await mailStatusToBuyer(trx, id, 'cancelled', links)
    const line = await refundableLine(trx, id)
    const refundLine = async () => {
      if (!options.refund) return { refund: null, noRefund: 'not_requested' as const }
      if (line.reason) return { refund: null, noRefund: line.reason }
      if (!options.refundLines) throw new DomainError('precondition', 'Refunds are not available')
      const refund = await options.refundLines(trx, {
        orderId: line.orderId,
        lineIds: [line.lineId!],
        reference: options.reference,
        reason,
        actor,
        links,
      })
      return { refund, noRefund: null }
    }
    if (!line.subscription) return refundLine()
    if (!options.endSubscription) throw new DomainError('precondition', 'Card payments are not configured')
    // The month in progress is refunded first: if Stripe then cannot end the subscription, nothing is cancelled here
    // and a retry finds the refund made (its key, or the refund recorded); had the subscription ended first, a failed
    // refund would leave Stripe's deletion event to close the order as completed.
    const month = await monthInProgress(trx, id)
    const outcome =
      month && month.number > 1 && month.stripeInvoiceId && options.refund
        ? await refundMonth(trx, options, { stripeInvoiceId: month.stripeInvoiceId, reason, actor }, month.number)
        : await refundLine()
    // Ended at Stripe before this commits (a failure cancels nothing); Stripe's deletion event then finds the
    // order already cancelled and changes nothing.
    await options.endSubscription(line.subscription).catch((error: unknown) => {
      throw new DomainError('upstream', 'Could not reach the payment provider. Try again.', { cause: error })
    })
    return outcome
  })
  return outcome
}

/** The latest paid month of a recurring order (the one the buyer is in), with the Stripe invoice that paid it. */
async function monthInProgress(trx: DB, id: string) {
  const period = await trx
    .selectFrom('service_order_periods')
    .select(['number', 'stripe_invoice_id'])
    .where('service_order_id', '=', id)
    .orderBy('number', 'desc')
    .limit(1)
    .executeTakeFirst()
  return period ? { number: period.number, stripeInvoiceId: period.stripe_invoice_id } : null
}

async function refundMonth(trx: DB, options: CancelOptions, request: MonthRefund, month: number) {
  if (!options.refundMonth) throw new DomainError('precondition', 'Refunds are not available')
  const refund = await options.refundMonth(trx, request)
  return refund
    ? { refund: { ...refund, month }, noRefund: null }
    : { refund: null, noRefund: 'already_refunded' as const }
}

/** The order line this service order was bought with, and whether it can be refunded through the refunds flow. */
async function refundableLine(trx: DB, id: string) {
  const row = await purchaseLineOf(trx, id)
  const subscription = row.recurring ? row.stripe_subscription_id : null
  const reason: NoRefund | null = !row.line_id
    ? 'nothing_paid'
    : row.refund_id
      ? 'already_refunded'
      : !['paid', 'partially_refunded'].includes(row.order_status) ||
          row.captured_minor <= 0 ||
          (row.unit_price_minor ?? 0) <= 0
        ? 'nothing_paid'
        : null
  return { orderId: row.order_id, lineId: row.line_id, subscription, reason }
}

/** The deliverables: a note and files uploaded beforehand; the order waits for the buyer's answer. */
export function deliver(db: DB, actor: Viewer, id: string, delivery: Delivery, links: MailLinks, now = clock.now()) {
  assertDeliverable(delivery)
  return staffMove(db, actor, id, 'deliver', links, async (trx) => {
    // A recurring order is delivered month by month (recurring.ts: deliverReport), never as a whole.
    const order = await trx.selectFrom('service_orders').select('recurring').where('id', '=', id).executeTakeFirst()
    if (order?.recurring) throw wrongStatus()
    await recordDelivery(trx, id, actor.id, delivery)
    return { delivered_at: now }
  })
}

/** Gives the order to a team member who can work it (editor and up), or nobody; audited. */
export async function assign(db: DB, actor: Viewer, id: string, assigneeId: string | null) {
  const order = await visibleOrder(db, id, actor, 'staff')
  if (assigneeId) {
    const member = await db.selectFrom('users').select('role').where('id', '=', assigneeId).executeTakeFirst()
    // Viewers cannot work an order, so they cannot own one.
    if (!member || !canBeAssigned(member.role)) throw new DomainError('invalid', 'Choose an editor or an admin')
  }
  await db.transaction().execute(async (trx) => {
    await trx
      .updateTable('service_orders')
      .set({ assignee_id: assigneeId, updated_at: clock.now() })
      .where('id', '=', id)
      .execute()
    await audit.record(trx, actor, 'service_order.assign', {
      type: 'service_order',
      id,
      before: { assigneeId: order.assignee_id },
      after: { assigneeId },
    })
  })
}

/**
 * A team member removed or made a viewer can no longer work orders: their orders not finished go back to the
 * queue's Unassigned (and the buyer's mail to the team's inbox), each change audited. Pass the caller's transaction.
 */
export async function releaseAssignments(trx: DB, actor: audit.Actor, memberId: string) {
  const released = await trx
    .updateTable('service_orders')
    .set({ assignee_id: null, updated_at: clock.now() })
    .where('assignee_id', '=', memberId)
    .where('status', 'not in', ['completed', 'cancelled'])
    .returning('id')
    .execute()
  for (const order of released) {
    await audit.record(trx, actor, 'service_order.assign', {
      type: 'service_order',
      id: order.id,
      before: { assigneeId: memberId },
      after: { assigneeId: null },
    })
  }
}
