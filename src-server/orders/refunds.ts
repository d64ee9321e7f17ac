// Giving money back. A refund names the lines it gives back (or none, for an amount refunded in the Stripe
// dashboard), and in one transaction: records the refund, marks its lines refunded, raises the order's refunded
// amount (a check keeps it within what was captured), moves the order to Partially refunded / Refunded, revokes
// exactly those lines' access in the ledger (reason 'refund'), issues the credit note and queues the buyer's e-mail.
// The order row stays locked meanwhile, so concurrent refunds take turns and each sees what is left.

import type { Transaction } from 'kysely'
import type { Database } from '../../db/types.ts'
import { allocate } from '../../src-shared/money.ts'
import { REFUND_MESSAGES } from '../../src-shared/schemas/orders.ts'
import { revoke } from '../access/ledger.ts'
import * as audit from '../audit/repository.ts'
import { hashToken } from '../auth/tokens.ts'
import * as clock from '../kernel/clock.ts'
import { type DB, inTransaction } from '../kernel/db.ts'
import { DomainError } from '../kernel/errors.ts'
import { issueCreditNote } from './invoices.ts'
import { type LockedOrder, lockOrder } from './lock.ts'
import { paidOfLine } from './paid-line.ts'
import { ORDER_NOT_FOUND } from './pending.ts'
import { sendRefundMail } from './refund-mail.ts'
import { listOrderLines, type OrderLine } from './repository.ts'
import { moveOrder, REFUNDABLE_STATUSES } from './transitions.ts'

/** Stripe refuses an idempotency key longer than this. */
const STRIPE_KEY_LIMIT = 255

/**
 * One refund attempt's idempotency key: the order, what was refunded before, and the lines (ids in id order). Past
 * five or so lines the ids would not fit Stripe's limit; cutting them off would give two different line sets the same
 * key (a retry naming one more line would be refused), so a long list is named by its SHA-256 instead.
 */
export function refundKey(order: { id: string; refunded_minor: number }, lines: { id: string }[]): string {
  const ids = lines.map((line) => line.id).join('.')
  const key = `refund-${order.id}-${order.refunded_minor}-${ids}`
  if (key.length <= STRIPE_KEY_LIMIT) return key
  return `refund-${order.id}-${order.refunded_minor}-${hashToken(ids)}`
}

/** Stripe's limit on a metadata value. */
const STRIPE_METADATA_VALUE_LIMIT = 500

/**
 * The lines a refund made here gives back, as its Stripe metadata (`lines`: ids, comma-separated): if Stripe's answer
 * is lost, its charge.refunded still says which lines it was for. Past ~13 lines they do not fit and are left out
 * (the refund is then flagged for staff like a dashboard one).
 */
export function refundLinesMetadata(lineIds: readonly string[]): Record<string, string> {
  const lines = lineIds.join(',')
  return lines && lines.length <= STRIPE_METADATA_VALUE_LIMIT ? { lines } : {}
}

/** The line ids a refund's metadata names (refundLinesMetadata), if any. */
export function refundLineIdsOf(metadata: Record<string, string> | null | undefined): string[] | undefined {
  const lines = metadata?.lines
  return lines ? lines.split(',') : undefined
}

/**
 * The card rail (Stripe), as orders/ needs it: give money back, end a plan's subscription so it never renews, and
 * find the payment of a subscription-mode checkout (Stripe pays it through the subscription's first invoice, so the
 * session names no payment intent).
 */
export interface RefundGateway {
  /** `lineIds` go with the refund (its metadata), so its charge.refunded can say which lines it gave back. */
  refund(
    order: LockedOrder,
    amountMinor: number,
    idempotencyKey: string,
    lineIds: readonly string[],
  ): Promise<{ stripeRefundId: string }>
  /** Ends the subscription now; one that has already ended counts as done. */
  cancelSubscription(stripeSubscriptionId: string): Promise<void>
  /** The payment intent that paid the order's checkout session, or null. */
  paymentIntentOfSession(stripeSessionId: string): Promise<string | null>
}

/** What other owners do when order lines are given back, in the same transaction (flows/refunds.ts wires them). */
export interface RefundEffects {
  endPlansOfOrder(trx: DB, orderId: string, at: Date): Promise<void>
  /**
   * The brand the buyer's refund e-mail comes under: a white-label school's when every line of the order is one of
   * its courses (as the receipt), else null (the platform's). orders/ cannot ask a school's brand itself.
   */
  brandOfOrder(trx: DB, orderId: string): Promise<{ displayName: string } | null>
  /** Takes back the creators' shares of the lines (exactly what their sale credited). */
  reverseCreatorShares(
    trx: DB,
    orderItemIds: readonly string[],
    cause: 'refund' | 'dispute',
    source: string,
  ): Promise<number>
  /**
   * The service orders the lines bought stop (service-orders/ owns them): one still open is cancelled, with its
   * history, the staff member's audit record (none for Stripe's events) and the buyer's e-mail; nothing is refunded
   * again. Decision 0132.
   */
  cancelServiceOrdersOfLines(
    trx: DB,
    orderItemIds: readonly string[],
    actor: audit.Actor | null,
    at: Date,
  ): Promise<void>
  /**
   * Gift lines given back: whoever claimed each is told the gift ended and its access with it (promotions/ and the
   * gift's mail are not orders/'s; decision 0146).
   */
  giftsGivenBack(
    trx: DB,
    orderId: string,
    lines: readonly { id: string; title: string }[],
    cause: 'refund' | 'dispute',
  ): Promise<void>
  /** Who a gift line was for and whether they claimed it (null: not a gift), for the giver's answer to a request. */
  giftOfLine(trx: DB, orderItemId: string): Promise<{ recipientEmail: string; claimedAt: string | null } | null>
}

/**
 * Lines given back: the order's plans end when they hold one, the service orders they bought are cancelled, creators
 * give back their shares, and a gift's recipient is told. `actor`: the staff member who refunded (null: Stripe, a lost
 * dispute).
 */
export async function settleGivenBackLines(
  trx: DB,
  order: { id: string; refundId: string; cause: 'refund' | 'dispute'; actor: audit.Actor | null },
  lines: readonly OrderLine[],
  at: Date,
  effects: RefundEffects,
): Promise<void> {
  if (lines.some((line) => line.kind === 'plan')) await effects.endPlansOfOrder(trx, order.id, at)
  const services = lines.filter((line) => line.kind === 'service_package')
  if (services.length) {
    await effects.cancelServiceOrdersOfLines(
      trx,
      services.map((line) => line.id),
      order.actor,
      at,
    )
  }
  await effects.reverseCreatorShares(
    trx,
    lines.map((line) => line.id),
    order.cause,
    `refund:${order.refundId}`,
  )
  if (lines.length) await effects.giftsGivenBack(trx, order.id, lines, order.cause)
}

export interface StaffRefund {
  orderId: string
  /** Lines to give back; absent: everything not refunded yet. */
  lineIds?: readonly string[]
  reference?: string
  reason?: string
  actor: audit.Actor
}

export interface RefundResult {
  refundId: string
  amountMinor: number
  status: 'partially_refunded' | 'refunded'
  creditNoteNumber: string | null
}

/**
 * Staff refund of a whole order or chosen lines. A card order is refunded through `gateway` (Stripe, called while
 * the order is locked, with a key that makes a retry of the same refund return Stripe's first answer); PayPal and
 * bank transfers are recorded as manual refunds with the reference staff give.
 */
export async function refundOrder(
  db: DB,
  request: StaffRefund,
  gateway: RefundGateway | null,
  effects: RefundEffects,
): Promise<RefundResult> {
  return inTransaction(db, async (trx) => {
    const order = await lockOrder(trx, request.orderId)
    if (!order) throw new DomainError('not_found', ORDER_NOT_FOUND)
    if (!REFUNDABLE_STATUSES.includes(order.status)) throw new DomainError('invalid', REFUND_MESSAGES.notRefundable)
    const lines = await listOrderLines(trx, order.id)
    const open = lines.filter((line) => !line.refund_id)
    const chosen = request.lineIds ? lines.filter((line) => request.lineIds!.includes(line.id)) : open
    if (request.lineIds && chosen.length !== new Set(request.lineIds).size) {
      throw new DomainError('not_found', 'Order line not found')
    }
    if (chosen.some((line) => line.refund_id)) throw new DomainError('conflict', REFUND_MESSAGES.lineRefunded)
    if (chosen.length === 0) throw new DomainError('conflict', REFUND_MESSAGES.nothingToRefund)
    const amount = amountFor(order, lines, chosen, open)
    // A line in its free trial took no money, so there is none to give back (Stripe holds no payment for it): ending
    // the trial is a cancellation, not a refund. Refused rather than ending the plan under a refund of nothing.
    if (amount <= 0 && chosen.every((line) => line.free_trial)) {
      throw new DomainError(
        'conflict',
        chosen.length < open.length ? REFUND_MESSAGES.paidNothing : REFUND_MESSAGES.trialPaidNothing,
      )
    }
    if (amount <= 0) throw new DomainError('conflict', REFUND_MESSAGES.nothingToRefund)
    // A refund that takes the last of the money gives the whole order back (applyRefund revokes every line): the open
    // lines not named go with it (a line in its free trial only when named, as for charge.refunded's last refund), so
    // their plans end at Stripe too and they read as refunded, as the order does.
    const givenBack =
      amount >= order.captured_minor - order.refunded_minor
        ? open.filter((line) => !line.free_trial || chosen.includes(line))
        : chosen

    let stripeRefundId: string | null = null
    if (order.method === 'card') {
      if (!gateway) throw new DomainError('precondition', CARD_NOT_REFUNDABLE)
      const paid = await withPaymentIntent(trx, order, gateway)
      // The plan's subscription ends at Stripe before its money is given back: a failure here leaves the payment
      // untouched (staff retry), while the other order would leave a refunded plan that renews.
      for (const id of await stripeSubscriptionsEndedBy(
        trx,
        order.id,
        chosen.length === open.length ? lines : givenBack,
      )) {
        await gateway.cancelSubscription(id)
      }
      const key = refundKey(order, chosen)
      const lineIds = chosen.map((line) => line.id)
      stripeRefundId = (await gateway.refund(paid, amount, key, lineIds)).stripeRefundId
    } else if (!request.reference) {
      throw new DomainError('invalid', REFUND_MESSAGES.referenceRequired, { field: 'reference' })
    }
    const result = await applyRefund(
      trx,
      order,
      {
        amount,
        lines: givenBack,
        method: stripeRefundId ? 'stripe' : 'manual',
        reference: stripeRefundId ?? request.reference ?? null,
        stripeRefundId,
        reason: request.reason ?? null,
        actor: request.actor,
      },
      effects,
    )
    await audit.record(trx, request.actor, 'order.refund', {
      type: 'order',
      id: order.id,
      before: { reference: order.reference, status: order.status, refundedMinor: order.refunded_minor },
      after: {
        reference: order.reference,
        status: result.status,
        refundedMinor: order.refunded_minor + amount,
        lines: givenBack.map((line) => line.title),
        creditNote: result.creditNoteNumber,
      },
    })
    return result
  })
}

const CARD_NOT_REFUNDABLE = 'This card payment cannot be refunded through Stripe'

/** The order with the payment intent Stripe will refund, found (and kept) for a subscription-mode checkout. */
async function withPaymentIntent(trx: DB, order: LockedOrder, gateway: RefundGateway): Promise<LockedOrder> {
  if (order.stripe_payment_intent_id) return order
  const found = order.stripe_session_id ? await gateway.paymentIntentOfSession(order.stripe_session_id) : null
  if (!found) throw new DomainError('precondition', CARD_NOT_REFUNDABLE)
  // Kept, so charge.refunded and disputes about this payment find the order.
  await trx.updateTable('orders').set({ stripe_payment_intent_id: found }).where('id', '=', order.id).execute()
  return { ...order, stripe_payment_intent_id: found }
}

/**
 * The Stripe subscriptions still running that refunding `lines` ends: those their plan line started, and those that
 * bill a monthly service one of them bought while its service order is open (its refund cancels the order: decision
 * 0132). A subscription that bills a plan too stays the membership's (decision 0104): only its plan line ends it.
 */
export async function stripeSubscriptionsEndedBy(trx: DB, orderId: string, lines: readonly OrderLine[]) {
  const packages = lines.flatMap((line) =>
    line.kind === 'service_package' && line.service_package_id ? [line.service_package_id] : [],
  )
  const [plans, services] = await Promise.all([
    lines.some((line) => line.kind === 'plan')
      ? trx
          .selectFrom('subscriptions')
          .select('stripe_subscription_id')
          .where('order_id', '=', orderId)
          .where('ended_at', 'is', null)
          .where('stripe_subscription_id', 'is not', null)
          .execute()
      : [],
    packages.length
      ? trx
          .selectFrom('service_orders as so')
          .select('so.stripe_subscription_id')
          .where('so.order_id', '=', orderId)
          .where('so.service_package_id', 'in', packages)
          .where('so.recurring', '=', true)
          .where('so.stripe_subscription_id', 'is not', null)
          .where('so.status', 'not in', ['completed', 'cancelled'])
          .where(({ exists, selectFrom, not }) =>
            not(
              exists(
                selectFrom('subscriptions as s')
                  .select('s.id')
                  .whereRef('s.stripe_subscription_id', '=', 'so.stripe_subscription_id'),
              ),
            ),
          )
          .execute()
      : [],
  ])
  return [...new Set([...plans, ...services].map((row) => row.stripe_subscription_id!))]
}

/**
 * The chosen lines' shares of the captured amount (their prices plus their share of the tax); the rest of the captured
 * amount when nothing stays open.
 */
function amountFor(order: LockedOrder, lines: OrderLine[], chosen: OrderLine[], open: OrderLine[]): number {
  const remaining = order.captured_minor - order.refunded_minor
  if (chosen.length === open.length) return remaining
  // The captured amount split over every line of the order by what was paid for it (its price less its stored coupon
  // share; a free trial's line nothing), once, by largest remainder: the shares sum to what was captured, so a line
  // gets the same whichever order the lines are refunded in, and a refund never returns another line's money.
  const paid = lines.map(paidOfLine)
  if (paid.every((amount) => amount === 0)) return 0
  const shares = allocate(order.captured_minor, paid)
  const ids = new Set(chosen.map((line) => line.id))
  const withTax = lines.reduce((sum, line, index) => sum + (ids.has(line.id) ? shares[index]! : 0), 0)
  return Math.min(withTax, remaining)
}

interface AppliedRefund {
  amount: number
  lines: OrderLine[]
  /** 'dispute': a lost chargeback took the money back (the order stays Disputed, the buyer is not e-mailed). */
  method: 'stripe' | 'manual' | 'dispute'
  reference: string | null
  stripeRefundId: string | null
  reason: string | null
  /** The staff member who refunded; null for Stripe's events (a dashboard refund, a lost dispute). */
  actor: audit.Actor | null
  /**
   * A partial dashboard refund or lost dispute that named no lines: staff say which lines it gave back (decision 0026,
   * needsLineAssignment).
   */
  needsLineAssignment?: boolean
}

/**
 * Whether money given back without naming its lines waits for staff to say which lines it gave back (decision 0026):
 * it names none while a line that took money is still open (a line in its free trial took none). A partial refund
 * made in the Stripe dashboard (charge.refunded) and a dispute lost for part of the payment (flows/disputes.ts).
 */
export function needsLineAssignment(given: readonly OrderLine[], open: readonly OrderLine[]): boolean {
  return given.length === 0 && open.some((line) => !line.free_trial)
}

/** The credit note's one line when a refund names no order lines. */
const REFUND_LINE_TITLE = { stripe: 'Refund', manual: 'Refund', dispute: 'Chargeback (dispute lost)' } as const

/** Records a refund on a locked order (see the file's header). Shared by staff refunds and Stripe reconciliation. */
export async function applyRefund(
  trx: Transaction<Database>,
  order: LockedOrder,
  refund: AppliedRefund,
  effects: RefundEffects,
): Promise<RefundResult> {
  if (order.refunded_minor + refund.amount > order.captured_minor) {
    throw new DomainError('conflict', REFUND_MESSAGES.exceedsCaptured)
  }
  const now = clock.now()
  const row = await trx
    .insertInto('refunds')
    .values({
      order_id: order.id,
      amount_minor: refund.amount,
      method: refund.method,
      reference: refund.reference,
      stripe_refund_id: refund.stripeRefundId,
      reason: refund.reason,
      created_by: refund.actor?.id ?? null,
      needs_line_assignment: refund.needsLineAssignment ?? false,
    })
    .returning('id')
    .executeTakeFirstOrThrow()
  const lineIds = refund.lines.map((line) => line.id)
  if (lineIds.length) {
    await trx
      .updateTable('order_items')
      .set({ refund_id: row.id, refunded_at: now })
      .where('id', 'in', lineIds)
      .where('refund_id', 'is', null)
      .execute()
    await revoke(trx, { orderItemIds: lineIds }, 'refund', now)
    const cause = refund.method === 'dispute' ? 'dispute' : 'refund'
    await settleGivenBackLines(
      trx,
      { id: order.id, refundId: row.id, cause, actor: refund.actor },
      refund.lines,
      now,
      effects,
    )
  }
  const refunded = order.refunded_minor + refund.amount
  const full = refunded >= order.captured_minor
  await trx.updateTable('orders').set({ refunded_minor: refunded }).where('id', '=', order.id).execute()
  const dispute = refund.method === 'dispute'
  // A line in its free trial took none of the money: all of it given back leaves that line (and its plan) running
  // unless this refund names it, and the order then reads Partially refunded, not Refunded.
  const trialRunsOn = (line: OrderLine) => line.free_trial && !line.refund_id && !lineIds.includes(line.id)
  let wholeOrder = full
  if (full) {
    // Everything given back: every line loses its access, whichever refund named it. Nothing is left to assign.
    const orderLines = await listOrderLines(trx, order.id)
    const all = orderLines.filter((line) => !trialRunsOn(line))
    wholeOrder = all.length === orderLines.length
    await revoke(trx, { orderItemIds: all.map((line) => line.id) }, dispute ? 'dispute' : 'refund', now)
    // Settled here: the rest, the lines no refund named. Those this refund named were settled above, and those an
    // earlier refund gave back were settled then (creators' shares reversed, schools told): once per line.
    const givenBackNow = all.filter((line) => line.refund_id === null)
    await settleGivenBackLines(
      trx,
      { id: order.id, refundId: row.id, cause: dispute ? 'dispute' : 'refund', actor: refund.actor },
      givenBackNow,
      now,
      effects,
    )
    await trx
      .updateTable('refunds')
      .set({ needs_line_assignment: false })
      .where('order_id', '=', order.id)
      .where('needs_line_assignment', '=', true)
      .execute()
  }
  if (!dispute) {
    await moveOrder(trx, order.id, wholeOrder ? 'refundFully' : 'refundPartly', {
      status_changed_by: refund.actor?.id ?? null,
    })
  }
  const creditNoteNumber = await issueCreditNote(trx, {
    id: row.id,
    orderId: order.id,
    amountMinor: refund.amount,
    lines: refund.lines.map((line) => ({
      title: line.title,
      detail: line.detail,
      quantity: 1,
      unitMinor: paidOfLine(line),
      amountMinor: paidOfLine(line),
      orderItemId: line.id,
    })),
    untitledAs: REFUND_LINE_TITLE[refund.method],
    completesOrder: full,
    capturedMinor: order.captured_minor,
    at: now,
  })
  if (!dispute) {
    const brand = await effects.brandOfOrder(trx, order.id)
    await sendRefundMail(trx, order, { amountMinor: refund.amount, lines: refund.lines, creditNoteNumber }, brand)
  }
  return {
    refundId: row.id,
    amountMinor: refund.amount,
    status: wholeOrder ? 'refunded' : 'partially_refunded',
    creditNoteNumber,
  }
}

/**
 * Plan lines give Premium through their subscription: refunding one ends it now (reason 'refund' in the ledger,
 * status Cancelled), so it neither renews nor gives Premium. Stripe's copy is ended by the caller (through the
 * gateway, or a webhook's follow-up).
 */
/** The order a Stripe payment intent paid, locked (undefined when not ours). */
export async function lockOrderOfPaymentIntent(trx: Transaction<Database>, paymentIntentId: string) {
  const row = await trx
    .selectFrom('orders')
    .select('id')
    .where('stripe_payment_intent_id', '=', paymentIntentId)
    .executeTakeFirst()
  return row ? lockOrder(trx, row.id) : undefined
}

/**
 * charge.refunded: the refunds Stripe lists for a payment, recorded once each. Refunds made here already carry
 * their Stripe id and are skipped; one made in the dashboard is recorded for its amount. It names no lines: one that
 * completes the refund takes every open line (and ends a plan's subscription: its Stripe id is returned for the
 * webhook to cancel after commit); a partial one leaves access as it is and is flagged for staff to say which lines
 * it gave back (decision 0026). Null when the payment is not ours.
 */
export async function reconcileStripeRefunds(
  trx: Transaction<Database>,
  charge: { paymentIntentId: string; refunds: readonly { id: string; amount: number; lineIds?: readonly string[] }[] },
  effects: RefundEffects,
): Promise<{ endedStripeSubscriptions: string[] } | null> {
  const order = await lockOrderOfPaymentIntent(trx, charge.paymentIntentId)
  if (!order) return null
  const known = await trx
    .selectFrom('refunds')
    .select('stripe_refund_id')
    .where('order_id', '=', order.id)
    .where('stripe_refund_id', 'is not', null)
    .execute()
  const seen = new Set(known.map((row) => row.stripe_refund_id))
  const endedSubscriptions: string[] = []
  let current = order
  for (const refund of charge.refunds) {
    const left = current.captured_minor - current.refunded_minor
    if (seen.has(refund.id) || refund.amount <= 0 || left <= 0) continue
    const open = (await listOrderLines(trx, order.id)).filter((line) => !line.refund_id)
    const last = refund.amount >= left
    // Made here, but Stripe's answer never came (a timeout): its metadata names the open lines it gave back, so
    // staff trying again find them refunded instead of paying them twice.
    const named = open.filter((line) => refund.lineIds?.includes(line.id))
    const ownLines = !last && named.length > 0 && named.length === refund.lineIds?.length
    // The last of the money takes the lines it paid for: a line in its free trial was paid nothing (its plan runs on).
    const lines = last
      ? open.filter((line) => !line.free_trial || refund.lineIds?.includes(line.id))
      : ownLines
        ? named
        : []
    const ended = await stripeSubscriptionsEndedBy(trx, order.id, lines)
    endedSubscriptions.push(...ended)
    await applyRefund(
      trx,
      current,
      {
        amount: Math.min(refund.amount, left),
        lines,
        method: 'stripe',
        reference: refund.id,
        stripeRefundId: refund.id,
        reason: ownLines
          ? 'Refunded here; confirmed by Stripe after its answer was lost'
          : 'Refunded in the Stripe dashboard',
        actor: null,
        needsLineAssignment: needsLineAssignment(lines, open),
      },
      effects,
    )
    current = (await lockOrder(trx, order.id))!
  }
  return { endedStripeSubscriptions: endedSubscriptions }
}
