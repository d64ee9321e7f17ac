// Read side of orders: a buyer's history, the admin list, an order's lines, and lookups by Stripe session.
import type { OrderStatus } from '../../db/types.ts'
import type { DB } from '../db.ts'

const HISTORY_LIMIT = 50

/** Two queries whatever the number of orders (no N+1). */
export async function listOrdersForUser(db: DB, userId: string) {
  const orders = await db
    .selectFrom('orders')
    .select(['id', 'reference', 'currency', 'method', 'status', 'total_minor', 'created_at', 'paid_at'])
    .where('user_id', '=', userId)
    .orderBy('created_at', 'desc')
    .limit(HISTORY_LIMIT)
    .execute()
  if (orders.length === 0) return []
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
  }))
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
