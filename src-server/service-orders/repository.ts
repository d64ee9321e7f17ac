// Reads of service orders and everything hanging off them (history, messages, files, deliveries). Writes live in
// the files named by what they do: transitions.ts, brief.ts, messages.ts, delivery.ts, staff.ts, files.ts.

import { type ExpressionBuilder, sql } from 'kysely'
import type { Database, ServiceOrderStatus } from '../../db/types.ts'
import { GENERIC_INTAKE_FORM, type IntakeForm, intakeFormShape } from '../../src-shared/schemas/service-brief.ts'
import { SERVICE_ORDER_OPEN_STATUSES } from '../../src-shared/service-orders.ts'
import * as clock from '../kernel/clock.ts'
import type { DB } from '../kernel/db.ts'
import { pageOf } from '../kernel/paging.ts'

const iso = (date: Date | null) => (date ? date.toISOString() : null)

/**
 * Messages of the order's thread that `reader` has not seen: the other side's, never internal notes. The buyer's
 * mark is the message's read_at; each staff member has their own (service_order_message_reads).
 */
function unreadOf(eb: ExpressionBuilder<Database, 'service_orders'>, reader: 'buyer' | { staffId: string }) {
  const query = eb
    .selectFrom('service_order_messages as m')
    .select(eb.fn.countAll<string>().as('n'))
    .whereRef('m.service_order_id', '=', 'service_orders.id')
    .where('m.from_staff', '=', reader === 'buyer')
    .where('m.internal', '=', false)
  return reader === 'buyer' ? query.where('m.read_at', 'is', null) : query.where(unreadByStaff(reader.staffId))
}

/** No read mark of this staff member on the message `m`. */
const unreadByStaff = (staffId: string) =>
  sql<boolean>`not exists (select 1 from service_order_message_reads r where r.message_id = m.id and r.user_id = ${staffId})`

/** What a line of the buyer's list and of the staff queue both show. */
const listColumns = [
  'service_orders.id',
  'service_orders.title',
  'service_orders.status',
  'service_orders.due_at',
  'service_orders.created_at',
  'services.title as service_title',
] as const

/** The buyer's service orders, newest first, each with the staff messages they have not read yet. */
export async function listForBuyer(db: DB, userId: string) {
  const rows = await db
    .selectFrom('service_orders')
    .leftJoin('services', 'services.id', 'service_orders.service_id')
    .select(listColumns)
    .select((eb) => [unreadOf(eb, 'buyer').as('unread'), currentPeriodOf(eb).as('period'), 'service_orders.recurring'])
    .select('service_orders.ends_at')
    .where('service_orders.user_id', '=', userId)
    .orderBy('service_orders.created_at', 'desc')
    .execute()
  return rows.map((row) => ({
    id: row.id,
    title: row.title,
    serviceTitle: row.service_title,
    status: row.status,
    dueAt: iso(row.due_at),
    createdAt: row.created_at.toISOString(),
    unread: Number(row.unread ?? 0),
    recurring: row.recurring,
    endsAt: iso(row.ends_at),
    period: periodView(row.period),
  }))
}

/** The latest period of a recurring order (its number, dates and whether its report went out), as JSON. */
function currentPeriodOf(eb: ExpressionBuilder<Database, 'service_orders'>) {
  return eb
    .selectFrom('service_order_periods as p')
    .select(
      sql<PeriodJson | null>`json_build_object('number', p.number, 'startsAt', p.starts_at, 'endsAt', p.ends_at,
        'dueAt', p.due_at, 'deliveredAt', p.delivered_at)`.as('period'),
    )
    .whereRef('p.service_order_id', '=', 'service_orders.id')
    .orderBy('p.number', 'desc')
    .limit(1)
}

interface PeriodJson {
  number: number
  startsAt: string
  endsAt: string
  dueAt: string
  deliveredAt: string | null
}

/** Timestamps inside json_build_object come back as text in the database's format: made ISO here. */
function periodView(period: PeriodJson | string | null | undefined) {
  if (!period) return null
  const p: PeriodJson = typeof period === 'string' ? JSON.parse(period) : period
  const at = (value: string | null) => (value ? new Date(value).toISOString() : null)
  return {
    number: p.number,
    startsAt: at(p.startsAt)!,
    endsAt: at(p.endsAt)!,
    dueAt: at(p.dueAt)!,
    deliveredAt: at(p.deliveredAt),
  }
}

export interface StaffQueueFilters {
  /** 1-based page of QUEUE_PAGE_SIZE orders. */
  page?: number
  status?: ServiceOrderStatus
  serviceId?: string
  /** A staff member's id, or 'none' for unassigned orders. */
  assignee?: string
  overdue?: boolean
  /** The buyer's e-mail address, lowercased (addresses are unique in any case). */
  buyer?: string
}

const overdueCondition = (now: Date) =>
  sql<boolean>`service_orders.due_at < ${now} and service_orders.status in (${sql.join([...SERVICE_ORDER_OPEN_STATUSES])})`

export const QUEUE_PAGE_SIZE = 50

/**
 * One page of the staff work queue: filtered, soonest due first (orders without a due date last), with the number
 * of orders the filters match. Unread counts are the reading staff member's own.
 */
export async function listForStaff(
  db: DB,
  filters: StaffQueueFilters,
  staffId: string,
  now = clock.now(),
  pageSize = QUEUE_PAGE_SIZE,
) {
  let query = db
    .selectFrom('service_orders')
    .innerJoin('users as buyer', 'buyer.id', 'service_orders.user_id')
    .leftJoin('users as assignee', 'assignee.id', 'service_orders.assignee_id')
    .leftJoin('services', 'services.id', 'service_orders.service_id')
  if (filters.status) query = query.where('service_orders.status', '=', filters.status)
  if (filters.serviceId) query = query.where('service_orders.service_id', '=', filters.serviceId)
  if (filters.assignee === 'none') query = query.where('service_orders.assignee_id', 'is', null)
  else if (filters.assignee) query = query.where('service_orders.assignee_id', '=', filters.assignee)
  if (filters.overdue) query = query.where(overdueCondition(now))
  if (filters.buyer) query = query.where(sql<string>`lower(buyer.email)`, '=', filters.buyer)
  const page = Math.max(1, filters.page ?? 1)
  const { rows, ...paging } = await pageOf(
    query
      .select(listColumns)
      .select([
        'service_orders.service_id',
        'service_orders.recurring',
        'buyer.email as buyer_email',
        'assignee.id as assignee_id',
        'assignee.first_name as assignee_first_name',
        'assignee.last_name as assignee_last_name',
      ])
      .select((eb) => [
        overdueCondition(now).as('overdue'),
        unreadOf(eb, { staffId }).as('unread'),
        currentPeriodOf(eb).as('period'),
      ])
      .orderBy(sql`service_orders.due_at asc nulls last`)
      .orderBy('service_orders.created_at')
      .orderBy('service_orders.id'),
    page,
    pageSize,
  )
  const items = rows.map((row) => ({
    id: row.id,
    title: row.title,
    serviceId: row.service_id,
    serviceTitle: row.service_title,
    status: row.status,
    dueAt: iso(row.due_at),
    createdAt: row.created_at.toISOString(),
    buyerEmail: row.buyer_email,
    assignee: row.assignee_id
      ? { id: row.assignee_id, name: `${row.assignee_first_name ?? ''} ${row.assignee_last_name ?? ''}`.trim() }
      : null,
    overdue: Boolean(row.overdue),
    unread: Number(row.unread ?? 0),
    recurring: row.recurring,
    period: periodView(row.period),
  }))
  return { items, ...paging, pageSize }
}

/** Counts for the queue's filter tabs and the dashboard: per status, overdue, and buyer messages `staffId` has not read. */
export async function queueCounts(db: DB, staffId: string, now = clock.now()) {
  const [byStatus, extra] = await Promise.all([
    db
      .selectFrom('service_orders')
      .select(['status', (eb) => eb.fn.countAll<string>().as('n')])
      .groupBy('status')
      .execute(),
    db
      .selectNoFrom([
        sql<string>`(select count(*) from service_orders where ${overdueCondition(now)})`.as('overdue'),
        sql<string>`(select count(*) from service_order_messages m where not m.from_staff and not m.internal
          and ${unreadByStaff(staffId)})`.as('unread'),
      ])
      .executeTakeFirstOrThrow(),
  ])
  const statuses = Object.fromEntries(byStatus.map((row) => [row.status, Number(row.n)])) as Partial<
    Record<ServiceOrderStatus, number>
  >
  return { byStatus: statuses, overdue: Number(extra.overdue), unreadMessages: Number(extra.unread) }
}

/** The queue page: one page of the filtered orders and the counts of the whole queue. */
export async function workQueue(db: DB, filters: StaffQueueFilters, staffId: string, now = clock.now()) {
  const [list, counts] = await Promise.all([listForStaff(db, filters, staffId, now), queueCounts(db, staffId, now)])
  return { ...list, counts }
}

/** A service's intake form, or the generic one when it has none (or a malformed one). */
export function intakeFormOf(stored: unknown): IntakeForm {
  return intakeFormShape.safeParse(stored).success ? (stored as IntakeForm) : GENERIC_INTAKE_FORM
}

/** Everything on an order's page. `staff` adds internal notes and the buyer's contact; the buyer sees neither. */
export async function orderDetail(db: DB, id: string, staff: boolean) {
  const order = await db
    .selectFrom('service_orders')
    .innerJoin('users as buyer', 'buyer.id', 'service_orders.user_id')
    .leftJoin('services', 'services.id', 'service_orders.service_id')
    .leftJoin('service_packages', 'service_packages.id', 'service_orders.service_package_id')
    .innerJoin('orders', 'orders.id', 'service_orders.order_id')
    .select([
      'service_orders.id',
      'service_orders.title',
      'service_orders.status',
      'service_orders.brief',
      'service_orders.brief_submitted_at',
      'service_orders.due_at',
      'service_orders.processing_days',
      'service_orders.revisions_allowed',
      'service_orders.revisions_used',
      'service_orders.assignee_id',
      'service_orders.delivered_at',
      'service_orders.created_at',
      'service_orders.service_id',
      'service_orders.recurring',
      'service_orders.ends_at',
      'service_orders.completed_at',
      'services.title as service_title',
      'services.intake_form',
      'service_packages.name as package_name',
      'orders.reference as order_reference',
      'orders.method as payment_method',
      'buyer.email as buyer_email',
      'buyer.first_name as buyer_first_name',
      'buyer.last_name as buyer_last_name',
    ])
    .where('service_orders.id', '=', id)
    .executeTakeFirstOrThrow()

  const [events, messages, files, deliveries, periods, line] = await Promise.all([
    db
      .selectFrom('service_order_events')
      .leftJoin('users', 'users.id', 'service_order_events.actor_id')
      .select(['service_order_events.id', 'from_status', 'to_status', 'service_order_events.created_at'])
      .select(['users.first_name', 'users.last_name', 'users.role'])
      .where('service_order_id', '=', id)
      .orderBy('service_order_events.created_at')
      .orderBy('service_order_events.id')
      .execute(),
    db
      .selectFrom('service_order_messages')
      .leftJoin('users', 'users.id', 'service_order_messages.author_id')
      .select([
        'service_order_messages.id',
        'from_staff',
        'internal',
        'body',
        'read_at',
        'service_order_messages.created_at',
        'users.first_name',
        'users.last_name',
      ])
      .where('service_order_id', '=', id)
      .$if(!staff, (q) => q.where('internal', '=', false))
      .orderBy('service_order_messages.created_at')
      .orderBy('service_order_messages.id')
      .execute(),
    db
      .selectFrom('service_order_files')
      .select(['id', 'purpose', 'file_name', 'content_type', 'size_bytes', 'message_id', 'delivery_id', 'created_at'])
      .where('service_order_id', '=', id)
      // Files uploaded for a message or delivery not sent yet belong to nobody's view.
      .where((eb) =>
        eb.or([eb('purpose', '=', 'brief'), eb('message_id', 'is not', null), eb('delivery_id', 'is not', null)]),
      )
      .orderBy('created_at')
      .execute(),
    db
      .selectFrom('service_order_deliveries')
      .select(['id', 'note', 'created_at'])
      .where('service_order_id', '=', id)
      .orderBy('created_at')
      .execute(),
    db
      .selectFrom('service_order_periods as p')
      .leftJoin('subscription_invoices as si', (join) =>
        join
          .onRef('si.stripe_invoice_id', '=', 'p.stripe_invoice_id')
          .onRef('si.service_order_id', '=', 'p.service_order_id'),
      )
      .select(['p.id', 'p.number', 'p.starts_at', 'p.ends_at', 'p.due_at', 'p.delivery_id', 'p.delivered_at'])
      .select(['si.amount_minor as paid_minor', 'si.billing_reason'])
      .select((eb) =>
        eb
          .selectFrom('subscription_invoice_refunds as r')
          .whereRef('r.subscription_invoice_id', '=', 'si.id')
          .select(sql<string>`coalesce(sum(r.amount_minor), 0)`.as('given'))
          .as('given_back_minor'),
      )
      .where('p.service_order_id', '=', id)
      .orderBy('p.number')
      .execute(),
    // The first month was paid with the order's line (a later month by its own Stripe invoice): refunded with it.
    purchaseLineOf(db, id),
  ])
  const periodOfDelivery = new Map(periods.flatMap((p) => (p.delivery_id ? [[p.delivery_id, p.number]] : [])))
  const visibleMessageIds = new Set(messages.map((m) => m.id))
  const fileView = (file: (typeof files)[number]) => ({
    id: file.id,
    name: file.file_name,
    contentType: file.content_type,
    sizeBytes: file.size_bytes,
    url: `/api/service-orders/${id}/files/${file.id}`,
  })
  const name = (first: string | null, last: string | null) => `${first ?? ''} ${last ?? ''}`.trim() || null
  return {
    id: order.id,
    title: order.title,
    serviceId: order.service_id,
    serviceTitle: order.service_title,
    packageName: order.package_name,
    orderReference: order.order_reference,
    /** How the order was paid (staff: a PayPal or bank refund needs a reference). */
    paymentMethod: staff ? order.payment_method : null,
    status: order.status,
    intakeForm: intakeFormOf(order.intake_form),
    brief: order.brief,
    briefSubmittedAt: iso(order.brief_submitted_at),
    dueAt: iso(order.due_at),
    processingDays: order.processing_days,
    revisionsAllowed: order.revisions_allowed,
    revisionsUsed: order.revisions_used,
    deliveredAt: iso(order.delivered_at),
    createdAt: order.created_at.toISOString(),
    recurring: order.recurring,
    /** A cancelled subscription: the order closes when its last paid period ends. */
    endsAt: iso(order.ends_at),
    completedAt: iso(order.completed_at),
    /**
     * The order line that paid for it was given back (a refund, or a lost dispute): when, and whether the bank took it
     * back. An unfinished order was cancelled with it; a completed one keeps its status (decision 0132).
     */
    paymentGivenBack: line.refunded_at
      ? { at: line.refunded_at.toISOString(), byDispute: line.refund_method === 'dispute' }
      : null,
    /**
     * Staff: the buyer's bank is disputing the payment and nothing is decided yet (the order is Disputed and this
     * line not given back): the order's access is withheld meanwhile, and staff hold the work rather than deliver it.
     */
    paymentDisputed: staff && line.order_status === 'disputed' && !line.refunded_at,
    periods: periods.map((period) => ({
      id: period.id,
      number: period.number,
      startsAt: period.starts_at.toISOString(),
      endsAt: period.ends_at.toISOString(),
      dueAt: period.due_at.toISOString(),
      deliveredAt: iso(period.delivered_at),
      deliveryId: period.delivery_id,
      refund: monthRefund(period, line.refunded_at),
    })),
    assigneeId: staff ? order.assignee_id : null,
    buyer: staff
      ? { email: order.buyer_email, name: name(order.buyer_first_name, order.buyer_last_name) ?? order.buyer_email }
      : null,
    briefFiles: files.filter((f) => f.purpose === 'brief').map(fileView),
    history: events.map((event) => ({
      id: event.id,
      from: event.from_status,
      to: event.to_status,
      at: event.created_at.toISOString(),
      by: staff ? name(event.first_name, event.last_name) : null,
    })),
    messages: messages.map((message) => ({
      id: message.id,
      fromStaff: message.from_staff,
      internal: message.internal,
      body: message.body,
      author: message.from_staff && !staff ? 'SkillForge team' : (name(message.first_name, message.last_name) ?? ''),
      createdAt: message.created_at.toISOString(),
      read: message.read_at !== null,
      files: files.filter((f) => f.message_id === message.id && visibleMessageIds.has(message.id)).map(fileView),
    })),
    deliveries: deliveries.map((delivery) => ({
      id: delivery.id,
      note: delivery.note,
      createdAt: delivery.created_at.toISOString(),
      /** The period whose report this is (recurring orders). */
      periodNumber: periodOfDelivery.get(delivery.id) ?? null,
      files: files.filter((f) => f.delivery_id === delivery.id).map(fileView),
    })),
  }
}

export type ServiceOrderDetail = Awaited<ReturnType<typeof orderDetail>>

/** The service order with the order line it was bought with (none for an order made without a package line). */
export function purchaseLineOf(db: DB, id: string) {
  return db
    .selectFrom('service_orders as so')
    .innerJoin('orders as o', 'o.id', 'so.order_id')
    .leftJoin('order_items as i', (join) =>
      join
        .onRef('i.order_id', '=', 'so.order_id')
        .onRef('i.service_package_id', '=', 'so.service_package_id')
        .on('i.kind', '=', 'service_package'),
    )
    .leftJoin('refunds as r', 'r.id', 'i.refund_id')
    .select([
      'so.order_id',
      'so.recurring',
      'so.stripe_subscription_id',
      'o.status as order_status',
      'o.captured_minor',
    ])
    .select(['i.id as line_id', 'i.unit_price_minor', 'i.refund_id', 'i.refunded_at', 'r.method as refund_method'])
    .where('so.id', '=', id)
    .executeTakeFirstOrThrow()
}

/**
 * What came back of a paid month (decision 0104): a month its own Stripe invoice paid, by that invoice's refunds and
 * lost disputes; the first month (or one paid another way), with the order's line that paid it.
 */
function monthRefund(
  month: { number: number; paid_minor: number | null; billing_reason: string | null; given_back_minor: string | null },
  lineRefundedAt: Date | null,
): 'refunded' | 'partly_refunded' | null {
  const byInvoice = month.paid_minor !== null && month.billing_reason !== 'subscription_create'
  if (!byInvoice) return month.number === 1 && lineRefundedAt ? 'refunded' : null
  const given = Number(month.given_back_minor ?? 0)
  if (given <= 0) return null
  return given >= (month.paid_minor ?? 0) ? 'refunded' : 'partly_refunded'
}
