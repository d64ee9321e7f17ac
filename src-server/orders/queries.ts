// Read side for the account: order history, enrolled courses and the premium entitlement.
import type { Kysely } from 'kysely'
import type { Database, OrderStatus } from '../../db/types.ts'

type DB = Kysely<Database>
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

export async function listEnrolledCourses(db: DB, userId: string) {
  const rows = await db
    .selectFrom('enrolments as e')
    .innerJoin('courses as c', 'c.id', 'e.course_id')
    .select(['c.id', 'c.title', 'c.instructor_name', 'c.image_url', 'e.enrolled_at'])
    .where('e.user_id', '=', userId)
    .orderBy('e.enrolled_at', 'desc')
    .execute()
  return rows.map((row) => ({
    id: row.id,
    title: row.title,
    instructor: row.instructor_name,
    image: row.image_url,
    enrolledAt: row.enrolled_at.toISOString(),
  }))
}

/** Premium is decided here only: a trialing or active subscription that has not run out. */
export async function getEntitlements(db: DB, userId: string, now = new Date()) {
  const [subscription, enrolments] = await Promise.all([
    db
      .selectFrom('subscriptions as s')
      .innerJoin('plans as p', 'p.id', 's.plan_id')
      .select(['s.plan_id', 'p.name', 's.billing_cycle', 's.status', 's.renews_at', 's.stripe_subscription_id'])
      .where('s.user_id', '=', userId)
      .where('s.status', 'in', ['trialing', 'active'])
      // A Stripe subscription renews itself (its events say when it ends); a manual one lapses at renews_at.
      .where((eb) => eb.or([eb('s.stripe_subscription_id', 'is not', null), eb('s.renews_at', '>', now)]))
      .orderBy('s.created_at', 'desc')
      .limit(1)
      .executeTakeFirst(),
    db.selectFrom('enrolments').select('course_id').where('user_id', '=', userId).execute(),
  ])
  return {
    isPremium: Boolean(subscription),
    plan: subscription
      ? {
          id: subscription.plan_id,
          name: subscription.name,
          billingCycle: subscription.billing_cycle,
          status: subscription.status,
        }
      : null,
    renewsAt: subscription?.renews_at?.toISOString() ?? null,
    courseIds: enrolments.map((row) => row.course_id),
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
