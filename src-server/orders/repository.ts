// Read side of orders: a buyer's history, the admin list, an order's lines, and lookups by Stripe session.
import { sql } from 'kysely'
import type { OrderStatus } from '../../db/types.ts'
import { trialStartedText } from '../../src-shared/membership.ts'
import type { DB } from '../kernel/db.ts'
import { paidOfLine } from './paid-line.ts'
import { listPaidInvoicesByOrder } from './subscription-invoices.ts'
import { REFUNDABLE_STATUSES } from './transitions.ts'

export const ORDER_HISTORY_LIMIT = 50

/** A fixed number of queries whatever the number of orders (no N+1): lines, invoices, credit notes, requests. */
export async function listOrdersForUser(db: DB, userId: string) {
  const orders = await db
    .selectFrom('orders')
    .select(['id', 'reference', 'currency', 'method', 'status', 'total_minor', 'refunded_minor', 'created_at'])
    .select(['paid_at', 'stripe_session_id', 'source'])
    .where('user_id', '=', userId)
    .orderBy('created_at', 'desc')
    .limit(ORDER_HISTORY_LIMIT)
    .execute()
  if (orders.length === 0) return []
  const ids = orders.map((order) => order.id)
  const [items, invoices, creditNotes, requests, subscriptions, paidRenewals, renewalInvoices] = await Promise.all([
    db
      .selectFrom('order_items')
      .select(['id', 'order_id', 'kind', 'title', 'detail', 'unit_price_minor', 'discount_minor', 'course_id'])
      .select(['refunded_at', 'free_trial', 'bundle_id', 'bundle_title'])
      .where('order_id', 'in', ids)
      .orderBy('id')
      .execute(),
    db.selectFrom('invoices').select(['id', 'order_id', 'number']).where('order_id', 'in', ids).execute(),
    creditNotesOfUser(db, userId),
    db
      .selectFrom('refund_requests')
      .select(['order_id', 'order_item_id', 'bundle_id', 'status', 'decision_reason'])
      .where('order_id', 'in', ids)
      .execute(),
    db
      .selectFrom('subscriptions')
      .select(['order_id', 'trial_ends_at', 'amount_minor', 'currency'])
      .where('order_id', 'in', ids)
      .where('duplicate_of', 'is', null)
      .execute(),
    listPaidInvoicesByOrder(db, userId),
    renewalInvoicesOfUser(db, userId),
  ])
  return orders.map((order) => {
    const invoice = invoices.find((row) => row.order_id === order.id)
    return {
      id: order.id,
      reference: order.reference,
      currency: order.currency,
      method: order.method,
      status: order.status,
      totalMinor: order.total_minor,
      refundedMinor: order.refunded_minor,
      createdAt: order.created_at.toISOString(),
      paidAt: order.paid_at?.toISOString() ?? null,
      /** A pending card order whose Stripe page may still be open: /account offers Resume payment. */
      resumable: order.status === 'pending' && order.method === 'card' && Boolean(order.stripe_session_id),
      /** The cart's own order (not a gift nor a membership renewal): the cart page shows it while it is pending. */
      fromCart: order.source === 'cart',
      invoice: invoice ? { id: invoice.id, number: invoice.number } : null,
      /** The invoices of the plan's or the monthly service's later payments, billed by the subscription it started. */
      renewalInvoices: renewalInvoices
        .filter((row) => row.order_id === order.id)
        .map((row) => ({ id: row.id, number: row.number })),
      creditNotes: creditNotes
        .filter((note) => note.order_id === order.id)
        .map((note) => ({ id: note.id, number: note.number, totalMinor: note.total_minor })),
      items: items
        .filter((item) => item.order_id === order.id)
        .map((item) => {
          // A bundle's request stands for each of its lines (decision 0149).
          const request = requests.find(
            (row) =>
              row.order_item_id === item.id ||
              (row.bundle_id !== null && row.bundle_id === item.bundle_id && row.order_id === item.order_id),
          )
          return {
            id: item.id,
            kind: item.kind,
            title: item.title,
            detail: item.detail,
            // What the buyer paid for the line: its price less its stored share of the coupon; nothing in a free trial.
            priceMinor: paidOfLine(item),
            discountMinor: item.discount_minor,
            freeTrial: item.free_trial,
            courseId: item.course_id,
            /** The bundle the course was bought in, as it was named then; a refund request covers its lines. */
            bundleId: item.bundle_id,
            bundleTitle: item.bundle_title,
            refunded: Boolean(item.refunded_at),
            refundRequest: request ? { status: request.status, decisionReason: request.decision_reason } : null,
          }
        }),
      subscription: subscriptionHistory(
        subscriptions.find((sub) => sub.order_id === order.id),
        paidRenewals.get(order.id) ?? [],
      ),
    }
  })
}
export type BuyerOrder = Awaited<ReturnType<typeof listOrdersForUser>>[number]

/**
 * Invoices with the order each belongs to: its own order's, or, for a renewal, the order whose subscription billed it
 * (a plan's order, or the order that bought a monthly service: decision 0104).
 */
const invoicesWithOrder = (db: DB) =>
  db
    .selectFrom('invoices as i')
    .leftJoin('subscription_invoices as si', 'si.stripe_invoice_id', 'i.stripe_invoice_id')
    .leftJoin('subscriptions as s', 's.id', 'si.subscription_id')
    .leftJoin('service_orders as so', 'so.id', 'si.service_order_id')
const invoiceOrder = sql<string | null>`coalesce(i.order_id, s.order_id, so.order_id)`

/** Credit notes, under the order of the invoice each corrects. */
const creditNotes = (db: DB) =>
  invoicesWithOrder(db)
    .innerJoin('credit_notes as cn', 'cn.invoice_id', 'i.id')
    .select(['cn.id', 'cn.number', 'cn.total_minor'])
    .orderBy('cn.number')

/** A user's credit notes, each with its order. */
const creditNotesOfUser = (db: DB, userId: string) =>
  creditNotes(db).select(invoiceOrder.as('order_id')).where('i.user_id', '=', userId).execute()

/** An order's credit notes: its own refunds', and its renewals' or service months'. */
export const creditNotesOfOrder = (db: DB, orderId: string) =>
  creditNotes(db).where(invoiceOrder, '=', orderId).execute()

/** Invoices for subscription payments after the first (a plan's renewals, a monthly service's later months). */
const renewalInvoices = (db: DB) =>
  invoicesWithOrder(db)
    .select(['i.id', 'i.number'])
    .where('i.order_id', 'is', null)
    .where('i.stripe_invoice_id', 'is not', null)
    .orderBy('i.issued_at')
    .orderBy('i.number')

/** A user's renewal invoices, each with the order whose subscription billed it. */
const renewalInvoicesOfUser = (db: DB, userId: string) =>
  renewalInvoices(db).select(invoiceOrder.as('order_id')).where('i.user_id', '=', userId).execute()

/** An order's renewal invoices (staff's order dialogs). */
export const renewalInvoicesOfOrder = (db: DB, orderId: string) =>
  renewalInvoices(db).where(invoiceOrder, '=', orderId).execute()

/** A plan order's story: the free trial it started (if any), then each paid invoice with its amount and date. */
function subscriptionHistory(
  sub: { trial_ends_at: Date | null; amount_minor: number | null; currency: string | null } | undefined,
  invoices: readonly {
    amount_minor: number
    currency: string
    paid_at: Date
    refunded_minor: number
    disputed_minor: number
  }[],
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
        /** Given back by refunds, and taken back by the member's bank in a dispute the shop lost. */
        refundedMinor: invoice.refunded_minor,
        disputedMinor: invoice.disputed_minor,
      })),
  }
}

/** The admin Orders page's filters: a status, and one order's reference or one customer's (lowercased) address. */
export interface StaffOrderFilter {
  status?: OrderStatus
  lookup?: { reference: string } | { email: string }
}

/** For the admin Orders page: newest first, optionally filtered, with the customer's e-mail (one query). */
export async function listOrdersForStaff(db: DB, options: StaffOrderFilter & { limit?: number; offset?: number } = {}) {
  let query = db
    .selectFrom('orders as o')
    .innerJoin('users as u', 'u.id', 'o.user_id')
    .leftJoin('invoices as i', 'i.order_id', 'o.id')
    .select(['i.id as invoice_id', 'i.number as invoice_number'])
    .select([
      'o.id',
      'o.reference',
      'o.currency',
      'o.method',
      'o.status',
      'o.total_minor as totalMinor',
      'o.created_at',
      'o.paid_at',
      'u.email as customerEmail',
    ])
    .select((eb) =>
      eb
        .exists(
          eb
            .selectFrom('refunds as r')
            .select('r.id')
            .whereRef('r.order_id', '=', 'o.id')
            .where('r.needs_line_assignment', '=', true),
        )
        .as('needs_line_assignment'),
    )
    // Staff are offered Refund only where money is left to give back: not for an order paid with nothing (a 100%
    // coupon), nor for a free trial that took nothing (ending a trial is a cancellation, decision 0089).
    .select((eb) =>
      eb
        .and([eb('o.status', 'in', REFUNDABLE_STATUSES), eb('o.captured_minor', '>', eb.ref('o.refunded_minor'))])
        .as('refundable'),
    )
    .orderBy('o.created_at', 'desc')
    .limit(Math.min(options.limit ?? 50, 200))
    .offset(options.offset ?? 0)
  if (options.status) query = query.where('o.status', '=', options.status)
  const lookup = options.lookup
  // References are printed in capitals; one typed in small letters finds its order too (both on the unique index).
  if (lookup && 'reference' in lookup)
    query = query.where('o.reference', 'in', [lookup.reference, lookup.reference.toUpperCase()])
  // Addresses are unique in any case (users_email_lower_key).
  if (lookup && 'email' in lookup) query = query.where(sql<string>`lower(u.email)`, '=', lookup.email)
  const rows = await query.execute()
  return rows.map(({ created_at, paid_at, invoice_id, invoice_number, needs_line_assignment, ...order }) => ({
    ...order,
    createdAt: created_at.toISOString(),
    paidAt: paid_at?.toISOString() ?? null,
    invoice: invoice_id && invoice_number ? { id: invoice_id, number: invoice_number } : null,
    /** A partial Stripe-dashboard refund waits for staff to say which lines it gave back (decision 0026). */
    needsLineAssignment: Boolean(needs_line_assignment),
  }))
}

/** An order's lines as bought (the price snapshot), for fulfilment and the cart clean-up. */
export function listOrderLines(db: DB, orderId: string) {
  return db
    .selectFrom('order_items')
    .select([
      'id',
      'kind',
      'course_id',
      'service_package_id',
      'plan_id',
      'billing_cycle',
      'item_key',
      'title',
      'detail',
      'unit_price_minor',
      'discount_minor',
      'refund_id',
      'recurring_interval',
      'bundle_id',
      'free_trial',
    ])
    .where('order_id', '=', orderId)
    .orderBy('id')
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

/** One of the buyer's orders, for the buyer's own actions on it (resume, cancel). */
export function findBuyerOrder(db: DB, orderId: string, userId: string) {
  return db
    .selectFrom('orders')
    .select(['id', 'status', 'method', 'reference', 'stripe_session_id', 'currency'])
    .where('id', '=', orderId)
    .where('user_id', '=', userId)
    .executeTakeFirst()
}

/** An order as staff act on it (cancel): any buyer's. */
export function findOrderForStaff(db: DB, orderId: string) {
  return db
    .selectFrom('orders')
    .select(['id', 'status', 'method', 'stripe_session_id'])
    .where('id', '=', orderId)
    .executeTakeFirst()
}

/** Card orders still pending since before `before` (the expiry job's batch; oldest first). */
export function listAbandonedCardOrders(db: DB, before: Date, limit = 100) {
  return db
    .selectFrom('orders')
    .select(['id', 'stripe_session_id'])
    .where('status', '=', 'pending')
    .where('method', '=', 'card')
    .where('created_at', '<', before)
    .orderBy('created_at')
    .limit(limit)
    .execute()
}

/** PayPal and bank-transfer orders made before `before` and still unpaid (pending or awaiting the transfer). */
export function listUnpaidTransferOrders(db: DB, before: Date, limit = 100) {
  return db
    .selectFrom('orders')
    .select(['id'])
    .where('status', 'in', ['pending', 'awaiting_transfer'])
    .where('method', 'in', ['paypal', 'bank_transfer'])
    .where('created_at', '<', before)
    .orderBy('created_at')
    .limit(limit)
    .execute()
}

/**
 * A plan's invoices, oldest first: the order that started it and each later payment (a Stripe invoice, or a renewal
 * order paid by PayPal or bank transfer); they stay listed after the plan ends.
 */
export function invoicesOfSubscription(
  db: DB,
  userId: string,
  plan: { orderId: string | null; subscriptionId: string },
) {
  const billed = db.selectFrom('subscription_invoices as si').where('si.subscription_id', '=', plan.subscriptionId)
  return db
    .selectFrom('invoices as i')
    .select(['i.id', 'i.number', 'i.issued_at', 'i.total_minor', 'i.currency'])
    .where('i.user_id', '=', userId)
    .where((eb) =>
      eb.or([
        ...(plan.orderId ? [eb('i.order_id', '=', plan.orderId)] : []),
        eb(
          'i.stripe_invoice_id',
          'in',
          billed.select('si.stripe_invoice_id').where('si.stripe_invoice_id', 'is not', null),
        ),
        eb('i.order_id', 'in', billed.select('si.order_id').where('si.order_id', 'is not', null)),
      ]),
    )
    .orderBy('i.issued_at')
    .orderBy('i.number')
    .execute()
}
