// Fulfilment of a paid order, exactly once: the order row is locked (SELECT ... FOR UPDATE) and only an
// unpaid order moves to paid, so a webhook, its retries, the success page and staff can all race safely.
import type { Kysely, Transaction } from 'kysely'
import type { Database, OrderStatus } from '../../db/types.ts'
import { formatMoney } from '../../src-shared/money.ts'
import { enqueueMail } from '../mail/outbox.ts'

export interface FulfilOptions {
  /** Who marked it paid: Stripe (money taken, so any unpaid state) or a staff member (pending states only). */
  source: 'stripe' | 'staff'
  actorId?: string
  stripeSubscriptionId?: string | null
}

export type FulfilResult = 'fulfilled' | 'already_paid' | 'not_found' | 'not_payable'

const TRIAL_DAYS = 7
const DAY_MS = 24 * 60 * 60 * 1000
const PAYABLE_BY: Record<FulfilOptions['source'], OrderStatus[]> = {
  stripe: ['pending', 'awaiting_transfer', 'failed', 'cancelled'],
  staff: ['pending', 'awaiting_transfer', 'failed'],
}

/** Runs in the caller's transaction when given one (so staff can audit in the same commit), else in its own. */
export async function fulfilOrder(db: Kysely<Database>, orderId: string, options: FulfilOptions) {
  return inTransaction(db, (trx) => fulfilOrderInTransaction(trx, orderId, options))
}

export function inTransaction<T>(db: Kysely<Database>, work: (trx: Transaction<Database>) => Promise<T>): Promise<T> {
  if (db.isTransaction) return work(db as Transaction<Database>)
  return db.transaction().execute(work)
}

export async function fulfilOrderInTransaction(
  trx: Transaction<Database>,
  orderId: string,
  options: FulfilOptions,
): Promise<FulfilResult> {
  const order = await trx
    .selectFrom('orders')
    .select(['id', 'user_id', 'status', 'reference', 'currency', 'total_minor'])
    .where('id', '=', orderId)
    .forUpdate()
    .executeTakeFirst()
  if (!order) return 'not_found'
  if (order.status === 'paid') return 'already_paid'
  if (!PAYABLE_BY[options.source].includes(order.status)) return 'not_payable'

  const now = new Date()
  await trx
    .updateTable('orders')
    .set({
      status: 'paid',
      paid_at: now,
      updated_at: now,
      status_changed_by: options.actorId ?? null,
      ...(options.stripeSubscriptionId ? { stripe_subscription_id: options.stripeSubscriptionId } : {}),
    })
    .where('id', '=', order.id)
    .execute()

  const items = await trx
    .selectFrom('order_items')
    .select(['kind', 'course_id', 'service_package_id', 'plan_id', 'billing_cycle', 'item_key', 'title'])
    .where('order_id', '=', order.id)
    .execute()

  const courses = items.filter((item) => item.kind === 'course' && item.course_id)
  if (courses.length) {
    await trx
      .insertInto('enrolments')
      .values(courses.map((item) => ({ user_id: order.user_id, course_id: item.course_id!, order_id: order.id })))
      .onConflict((oc) => oc.columns(['user_id', 'course_id']).doNothing())
      .execute()
  }
  const plans = items.filter((item) => item.kind === 'plan' && item.plan_id && item.billing_cycle)
  for (const item of plans) {
    // Card subscriptions start with the 7-day trial; a manually confirmed one runs for its billing period.
    const fromStripe = Boolean(options.stripeSubscriptionId)
    const periodDays = fromStripe ? TRIAL_DAYS : item.billing_cycle === 'annual' ? 365 : 30
    await trx
      .insertInto('subscriptions')
      .values({
        user_id: order.user_id,
        plan_id: item.plan_id!,
        billing_cycle: item.billing_cycle!,
        status: fromStripe ? 'trialing' : 'active',
        order_id: order.id,
        stripe_subscription_id: options.stripeSubscriptionId ?? null,
        renews_at: new Date(now.getTime() + periodDays * DAY_MS),
      })
      .onConflict((oc) => oc.columns(['order_id', 'plan_id']).doNothing())
      .execute()
  }
  const packages = items.filter((item) => item.kind === 'service_package')
  if (packages.length) {
    await trx
      .insertInto('service_orders')
      .values(
        packages.map((item) => ({
          user_id: order.user_id,
          order_id: order.id,
          service_package_id: item.service_package_id,
          title: item.title,
        })),
      )
      .onConflict((oc) => oc.columns(['order_id', 'service_package_id']).doNothing())
      .execute()
  }
  // The paid items leave the cart (items of another currency stay).
  await trx
    .deleteFrom('cart_items')
    .where('user_id', '=', order.user_id)
    .where(
      'item_key',
      'in',
      items.map((item) => item.item_key),
    )
    .execute()
  await sendReceipt(trx, order, items)
  return 'fulfilled'
}

async function sendReceipt(
  trx: Transaction<Database>,
  order: { user_id: string; reference: string; currency: string; total_minor: number },
  items: { title: string }[],
) {
  const user = await trx
    .selectFrom('users')
    .select(['email', 'first_name'])
    .where('id', '=', order.user_id)
    .executeTakeFirst()
  if (!user) return
  const total = formatMoney(order.total_minor, order.currency)
  const lines = items.map((item) => `- ${item.title}`).join('\n')
  await enqueueMail(trx, {
    kind: 'order_paid',
    to: user.email,
    subject: `Payment received for order ${order.reference}`,
    text: `Hi ${user.first_name || 'there'},\n\nWe have received your payment of ${total} for order ${order.reference}:\n${lines}\n\nThank you!`,
  })
}
