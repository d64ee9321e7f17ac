// Read side of orders: a buyer's history, the admin list, an order's lines, and lookups by Stripe session.
import type { OrderStatus } from '../../db/types.ts'
import { trialStartedText } from '../../src-shared/membership.ts'
import type { DB } from '../db.ts'
import { listPaidInvoicesByOrder } from './subscription-invoices.ts'

const HISTORY_LIMIT = 50

/** A fixed number of queries whatever the number of orders (no N+1). */
export async function listOrdersForUser(db: DB, userId: string) {
  const orders = await db
    .selectFrom('orders')
    .select(['id', 'reference', 'currency', 'method', 'status', 'total_minor', 'created_at', 'paid_at'])
    .where('user_id', '=', userId)
    .orderBy('created_at', 'desc')
    .limit(HISTORY_LIMIT)
    .execute()
  if (orders.length === 0) return []
  const orderIds = orders.map((order) => order.id)
  const [subscriptions, invoices] = await Promise.all([
    db
      .selectFrom('subscriptions')
      .select(['order_id', 'trial_ends_at', 'amount_minor', 'currency'])
      .where('order_id', 'in', orderIds)
      .where('duplicate_of', 'is', null)
      .execute(),
    listPaidInvoicesByOrder(db, userId),
  ])
  const items = await db
    .selectFrom('order_items')
    .select(['order_id', 'kind', 'title', 'detail', 'unit_price_minor', 'course_id'])
    .where(
      'order_id',
      'in',
      orders.map((order) => order.id),
    )
    .execute()
  return orders.map((order) => ({
    id: order.id,
    reference: order.reference,
    currency: order.currency,
    method: order.method,
    status: order.status,
    totalMinor: order.total_minor,
    createdAt: order.created_at.toISOString(),
    paidAt: order.paid_at?.toISOString() ?? null,
    items: items
      .filter((item) => item.order_id === order.id)
      .map((item) => ({
        kind: item.kind,
        title: item.title,
        detail: item.detail,
        priceMinor: item.unit_price_minor,
        courseId: item.course_id,
      })),
    subscription: subscriptionHistory(
      subscriptions.find((sub) => sub.order_id === order.id),
      invoices.get(order.id) ?? [],
    ),
  }))
}

/** A plan order's story: the free trial it started (if any), then each paid invoice with its amount and date. */
function subscriptionHistory(
  sub: { trial_ends_at: Date | null; amount_minor: number | null; currency: string | null } | undefined,
  invoices: readonly { amount_minor: number; currency: string; paid_at: Date }[],
) {
  if (!sub) return null
  return {
    trialText:
      sub.trial_ends_at && sub.amount_minor !== null
        ? trialStartedText(sub.amount_minor, sub.currency ?? 'USD', sub.trial_ends_at)
        : null,
    payments: invoices
      .filter((invoice) => invoice.amount_minor > 0)
      .map((invoice) => ({
        amountMinor: invoice.amount_minor,
        currency: invoice.currency,
        paidAt: invoice.paid_at.toISOString(),
      })),
  }
}

/** For the admin Orders page: newest first, optionally by status, with the customer's e-mail (one query). */
export async function listOrdersForStaff(
  db: DB,
  options: { status?: OrderStatus; limit?: number; offset?: number } = {},
) {
  let query = db
    .selectFrom('orders as o')
    .innerJoin('users as u', 'u.id', 'o.user_id')
    .select([
      'o.id',
      'o.reference',
      'o.currency',
      'o.method',
      'o.status',
      'o.total_minor',
      'o.created_at',
      'o.paid_at',
      'u.email',
    ])
    .orderBy('o.created_at', 'desc')
    .limit(Math.min(options.limit ?? 50, 200))
    .offset(options.offset ?? 0)
  if (options.status) query = query.where('o.status', '=', options.status)
  const rows = await query.execute()
  return rows.map((row) => ({
    id: row.id,
    reference: row.reference,
    customerEmail: row.email,
    currency: row.currency,
    method: row.method,
    status: row.status,
    totalMinor: row.total_minor,
    createdAt: row.created_at.toISOString(),
    paidAt: row.paid_at?.toISOString() ?? null,
  }))
}

/** An order's lines as bought (the price snapshot), for fulfilment and the cart clean-up. */
export function listOrderLines(db: DB, orderId: string) {
  return db
    .selectFrom('order_items')
    .select(['id', 'kind', 'course_id', 'service_package_id', 'plan_id', 'billing_cycle', 'item_key', 'title'])
    .where('order_id', '=', orderId)
    .execute()
}
export type OrderLine = Awaited<ReturnType<typeof listOrderLines>>[number]

/** The order a Stripe Checkout Session was opened for; `userId` limits it to that buyer's orders. */
export function findOrderByStripeSession(db: DB, sessionId: string, userId?: string) {
  let query = db
    .selectFrom('orders')
    .select(['id', 'reference', 'currency', 'total_minor', 'status'])
    .where('stripe_session_id', '=', sessionId)
  if (userId) query = query.where('user_id', '=', userId)
  return query.executeTakeFirst()
}

/** Whether any order (whatever its status: a pending bank transfer is still an order) has a line for the course. */
export async function courseHasOrderLines(db: DB, courseId: string): Promise<boolean> {
  const line = await db
    .selectFrom('order_items')
    .select('id')
    .where('course_id', '=', courseId)
    .limit(1)
    .executeTakeFirst()
  return Boolean(line)
}
