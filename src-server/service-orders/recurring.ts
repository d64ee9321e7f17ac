// Recurring service orders (monthly SEO management). A card purchase runs as a Stripe subscription: each paid
// invoice of it opens a period of the order (idempotent by invoice), each period is due its own delivery (the
// monthly report) by the period's end; cancelling the subscription marks the order as ending at the period's end,
// and Stripe's deletion at that moment closes it (transition `close`). The order's own due date is the earliest
// undelivered period's, so the work queue sorts and counts overdue reports like any other delivery.

import type { ServiceOrderStatus } from '../../db/types.ts'
import * as clock from '../kernel/clock.ts'
import type { DB } from '../kernel/db.ts'
import { DomainError } from '../kernel/errors.ts'
import { auditTransition, notFound, type Viewer, visibleOrder } from './access.ts'
import { assertDeliverable, type Delivery, recordDelivery } from './delivery.ts'
import { type MailLinks, mailStatusToBuyer, mailToBuyer } from './mails.ts'
import { moveServiceOrder } from './transitions.ts'

/** Not finished: a period may still open, and the subscription's end still closes it. */
const LIVE: ServiceOrderStatus[] = ['brief_needed', 'submitted', 'in_progress', 'delivered', 'revision_requested']

export interface PaidPeriod {
  /** The Stripe invoice that paid it; null for a month paid another way. */
  stripeInvoiceId: string | null
  startsAt: Date
  endsAt: Date
}

/** Opens the next period of an open recurring order; false when this invoice already opened one or it is closed. */
export async function openPeriod(trx: DB, serviceOrderId: string, period: PaidPeriod): Promise<boolean> {
  const order = await trx
    .selectFrom('service_orders')
    .select('status')
    .where('id', '=', serviceOrderId)
    .forUpdate()
    .executeTakeFirstOrThrow()
  if (!LIVE.includes(order.status)) return false
  const last = await trx
    .selectFrom('service_order_periods')
    .select((eb) => eb.fn.max('number').as('n'))
    .where('service_order_id', '=', serviceOrderId)
    .executeTakeFirst()
  const inserted = await trx
    .insertInto('service_order_periods')
    .values({
      service_order_id: serviceOrderId,
      number: Number(last?.n ?? 0) + 1,
      stripe_invoice_id: period.stripeInvoiceId,
      starts_at: period.startsAt,
      ends_at: period.endsAt,
      due_at: period.endsAt,
    })
    .onConflict((oc) => oc.column('stripe_invoice_id').doNothing())
    .returning('id')
    .executeTakeFirst()
  if (!inserted) return false
  await syncRecurringDue(trx, serviceOrderId)
  return true
}

/** The recurring orders a Stripe subscription bills. */
function ordersOfSubscription(trx: DB, stripeSubscriptionId: string) {
  return trx
    .selectFrom('service_orders')
    .select(['id', 'status'])
    .where('stripe_subscription_id', '=', stripeSubscriptionId)
    .where('recurring', '=', true)
    .execute()
}

/** invoice.paid: a paid month of each order the subscription bills. False when it bills none of ours. */
export async function periodsForPaidInvoice(
  trx: DB,
  stripeSubscriptionId: string,
  invoice: { id: string; startsAt: Date | null; endsAt: Date },
): Promise<boolean> {
  const orders = await ordersOfSubscription(trx, stripeSubscriptionId)
  for (const order of orders) {
    const startsAt = invoice.startsAt ?? new Date(invoice.endsAt.getTime() - 30 * 24 * 60 * 60 * 1000)
    await openPeriod(trx, order.id, { stripeInvoiceId: invoice.id, startsAt, endsAt: invoice.endsAt })
  }
  return orders.length > 0
}

/**
 * A subscription snapshot: ended → each open order closes, with an e-mail; cancelled at the period's end → the
 * orders show when they end (or no longer, when resumed). False when it bills none of ours.
 */
export async function subscriptionChanged(
  trx: DB,
  stripeSubscriptionId: string,
  change: { ended: boolean; endsAt: Date | null },
  links: MailLinks,
  now = clock.now(),
): Promise<boolean> {
  const orders = await ordersOfSubscription(trx, stripeSubscriptionId)
  for (const order of orders) {
    if (change.ended) {
      const moved = await moveServiceOrder(trx, order.id, 'close', null, { completed_at: now, due_at: null })
      if (moved) await mailStatusToBuyer(trx, order.id, 'completed', links)
    } else {
      await trx
        .updateTable('service_orders')
        .set({ ends_at: change.endsAt, updated_at: now })
        .where('id', '=', order.id)
        .where('status', 'in', LIVE)
        .execute()
    }
  }
  return orders.length > 0
}

/** The order is due when its earliest undelivered report is; nothing is due while the brief is awaited. */
export async function syncRecurringDue(trx: DB, serviceOrderId: string): Promise<void> {
  const next = await trx
    .selectFrom('service_order_periods')
    .select('due_at')
    .where('service_order_id', '=', serviceOrderId)
    .where('delivery_id', 'is', null)
    .orderBy('number')
    .limit(1)
    .executeTakeFirst()
  await trx
    .updateTable('service_orders')
    .set({ due_at: next?.due_at ?? null })
    .where('id', '=', serviceOrderId)
    .where('status', '<>', 'brief_needed')
    .execute()
}

/** Staff deliver the report of the earliest undelivered period; the order goes on (it stays In progress). */
export async function deliverReport(
  db: DB,
  actor: Viewer,
  id: string,
  delivery: Delivery,
  links: MailLinks,
  now = clock.now(),
) {
  await visibleOrder(db, id, actor, 'staff')
  assertDeliverable(delivery)
  return db.transaction().execute(async (trx) => {
    const order = await trx
      .selectFrom('service_orders')
      .select(['status', 'recurring'])
      .where('id', '=', id)
      .forUpdate()
      .executeTakeFirst()
    if (!order) throw notFound()
    if (!order.recurring || order.status !== 'in_progress') {
      throw new DomainError('conflict', 'This action is not available in the order’s current status')
    }
    const period = await trx
      .selectFrom('service_order_periods')
      .select(['id', 'number'])
      .where('service_order_id', '=', id)
      .where('delivery_id', 'is', null)
      .orderBy('number')
      .limit(1)
      .executeTakeFirst()
    if (!period) throw new DomainError('conflict', 'Every paid month already has its report')
    const deliveryId = await recordDelivery(trx, id, actor.id, delivery)
    await trx
      .updateTable('service_order_periods')
      .set({ delivery_id: deliveryId, delivered_at: now })
      .where('id', '=', period.id)
      .execute()
    await trx.updateTable('service_orders').set({ delivered_at: now, updated_at: now }).where('id', '=', id).execute()
    await syncRecurringDue(trx, id)
    await auditTransition(trx, actor, 'service_order.deliver_report', id, `month ${period.number}`, 'delivered')
    await mailToBuyer(trx, id, `Your report for month ${period.number} is ready.`, links)
    return { periodNumber: period.number }
  })
}

/**
 * The buyer cancels the subscription: Stripe stops at the period's end, and the order closes then. `stopAtPeriodEnd`
 * is Stripe's side (flows/service-subscriptions.ts), answering the end of the paid period; null without Stripe.
 */
export async function cancelRecurring(
  db: DB,
  viewer: Viewer,
  id: string,
  stopAtPeriodEnd: ((stripeSubscriptionId: string) => Promise<Date | null>) | null,
) {
  await visibleOrder(db, id, viewer, 'buyer')
  const order = await db
    .selectFrom('service_orders')
    .select(['recurring', 'stripe_subscription_id', 'status', 'ends_at'])
    .where('id', '=', id)
    .executeTakeFirstOrThrow()
  if (!order.recurring || !order.stripe_subscription_id || !stopAtPeriodEnd) {
    throw new DomainError('precondition', 'This service has no subscription to cancel')
  }
  if (order.status === 'completed' || order.status === 'cancelled') {
    throw new DomainError('conflict', 'This service has already ended')
  }
  const endsAt = await stopAtPeriodEnd(order.stripe_subscription_id).catch((error: unknown) => {
    throw new DomainError('upstream', 'Could not reach the payment provider. Try again.', { cause: error })
  })
  // The webhook's snapshot sets it too; writing it now shows it at once.
  await db
    .updateTable('service_orders')
    .set({ ends_at: endsAt, updated_at: clock.now() })
    .where('id', '=', id)
    .execute()
  return { endsAt: endsAt?.toISOString() ?? null }
}
