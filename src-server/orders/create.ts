// Turns one currency group of the cart into its pending order, snapshotting the prices of that moment. A cart has at
// most one pending order per currency whatever the rail (a partial unique index says so): starting checkout again
// with the same lines and rail reuses it; anything else must first retire it (see replacePendingOrder).

import { randomBytes } from 'node:crypto'
import type { Transaction } from 'kysely'
import type {
  BillingCycle,
  CartItemKind,
  Database,
  OrderItemKind,
  PaymentMethod,
  SalesChannel,
} from '../../db/types.ts'
import type { Currency } from '../../src-shared/money.ts'
import { CART_MESSAGES, PAYMENT_MESSAGES } from '../../src-shared/schemas/cart.ts'
import * as clock from '../kernel/clock.ts'
import { type DB, inTransaction } from '../kernel/db.ts'
import { DomainError } from '../kernel/errors.ts'
import { isUniqueViolation } from '../kernel/pg-errors.ts'

export interface CreatedOrder {
  id: string
  reference: string
  currency: Currency
  method: PaymentMethod
  totalMinor: number
  lines: CheckoutLine[]
  /** The cart's existing pending order, given back as it was (a card order still has its Stripe session). */
  reused: boolean
  stripeSessionId: string | null
}

/** An order prefix and the current time (spec), plus a short random tail so two orders never collide. */
export function orderReference(prefix: string, now = clock.now()): string {
  return `${prefix}-${now.getTime().toString(36).toUpperCase()}-${randomBytes(2).toString('hex').toUpperCase()}`
}

export interface Billing {
  name?: string
  email?: string
  company?: string
  address?: string
  vatNumber?: string
}

/** A cart line as an order copies it (cart/lines.ts's CartLine is one). */
export interface OrderableLine {
  kind: CartItemKind
  key: string
  title: string
  detail: string
  priceMinor: number
  currency: Currency
  recurringInterval: 'month' | 'year' | null
  billingCycle: BillingCycle | null
  courseId: string | null
  packageId: string | null
  planId: string | null
  /** A course of a bundle (its key is the bundle's cart key; its price the course's allocated share). */
  bundle?: { id: string; title: string } | null
  /** A course line reached from a catalogue search or browsing (analytics' channels); absent: direct. */
  channel?: SalesChannel | null
}

/** What an order needs of the cart, handed in by the flow (flows/cart-order.ts): orders never import cart/. */
export interface OrderCart {
  lines(trx: DB, userId: string): Promise<OrderableLine[]>
  /** Takes purchased lines out of the cart (a PayPal order, paid away from the site). */
  takeOut(trx: DB, userId: string, keys: readonly string[]): Promise<void>
}

/** A coupon's discount on the lines of one currency group (promotions/ works it out; the flow hands it in). */
export interface OrderDiscount {
  couponId: string
  code: string
  /** Each line's share, in the order of the lines given to quote. */
  perLine: number[]
}

/** The cart's coupon, handed in by the flow (flows/coupon-checkout.ts): orders never import promotions/. */
export interface OrderCoupon {
  /** The discount the cart's code gives these lines, null for none; throws the refusal when it cannot be used. */
  quote(trx: DB, userId: string, currency: Currency, lines: readonly OrderableLine[]): Promise<OrderDiscount | null>
  /** Holds one use for the new order in its transaction, or throws the refusal (used up, already used). */
  reserve(trx: DB, use: { orderId: string; userId: string; currency: Currency; discount: OrderDiscount }): Promise<void>
}

export interface NewOrder {
  cart: OrderCart
  coupon?: OrderCoupon
  userId: string
  currency: Currency
  method: PaymentMethod
  referencePrefix: string
  billing?: Billing
  /** Runs in the creating transaction for a new order (e.g. the e-mail with the bank details). */
  onCreated?: (trx: DB, order: CreatedOrder) => Promise<void>
  /**
   * The total the payment page showed the buyer: a cart that now comes to another amount is refused before any order
   * is made or reused, so the buyer is never charged what they were not shown (decision 0145).
   */
  shownTotalMinor?: number
}

/** The pending order of the user's cart in that currency, locked: the cart's one order. */
function lockPendingOrder(trx: Transaction<Database>, userId: string, currency: Currency) {
  return trx
    .selectFrom('orders')
    .select(['id', 'reference', 'method', 'total_minor', 'stripe_session_id'])
    .where('user_id', '=', userId)
    .where('currency', '=', currency)
    .where('status', '=', 'pending')
    .where('source', '=', 'cart')
    .forUpdate()
    .executeTakeFirst()
}
export type PendingOrder = NonNullable<Awaited<ReturnType<typeof lockPendingOrder>>>

/** What checkout sends to the gateway for each line. */
export type CheckoutLine = Pick<
  OrderableLine,
  'kind' | 'title' | 'detail' | 'priceMinor' | 'recurringInterval' | 'planId' | 'billingCycle'
> & {
  /** The line's stored share of the coupon (0 when absent): the gateway charges priceMinor - discountMinor. */
  discountMinor?: number
}

export type CartOrder = { kind: 'order'; order: CreatedOrder } | { kind: 'in_the_way'; pending: PendingOrder }

/** Like openCartOrder, for callers that have no way to retire a pending order in the way. */
export async function createFromCart(db: DB, input: NewOrder): Promise<CreatedOrder> {
  const result = await openCartOrder(db, input)
  if (result.kind === 'order') return result.order
  throw new DomainError(
    'conflict',
    result.pending.method === 'paypal' ? PAYMENT_MESSAGES.paypalPending : PAYMENT_MESSAGES.checkoutInProgress,
  )
}

/**
 * The cart's pending order: the existing one when it holds the same lines at the same prices for the same rail,
 * else a new one; or the pending order in the way (another rail, or the cart changed), for the caller to retire.
 */
export async function openCartOrder(db: DB, input: NewOrder): Promise<CartOrder> {
  try {
    return await inTransaction(db, (trx) => openInTransaction(trx, input))
  } catch (error) {
    // Two checkouts of one cart raced past the read: the loser finds the winner's order.
    if (!isUniqueViolation(error) || db.isTransaction) throw error
    return inTransaction(db, (trx) => openInTransaction(trx, input))
  }
}

async function openInTransaction(trx: Transaction<Database>, input: NewOrder): Promise<CartOrder> {
  const { userId, currency, method } = input
  const lines = (await input.cart.lines(trx, userId)).filter((line) => line.currency === currency)
  const discount = lines.length > 0 ? ((await input.coupon?.quote(trx, userId, currency, lines)) ?? null) : null
  const priced = lines.map((line, index) => ({ ...line, discountMinor: discount?.perLine[index] ?? 0 }))
  const subtotal = lines.reduce((sum, line) => sum + line.priceMinor, 0)
  const discountMinor = priced.reduce((sum, line) => sum + line.discountMinor, 0)
  const total = subtotal - discountMinor
  // An empty group has nothing to compare (a PayPal order that took the lines is handed back below).
  if (input.shownTotalMinor !== undefined && lines.length > 0 && total !== input.shownTotalMinor) {
    throw new DomainError('conflict', PAYMENT_MESSAGES.totalChanged)
  }
  const existing = await lockPendingOrder(trx, userId, currency)
  if (existing) {
    const held = await orderCheckoutLines(trx, existing.id)
    // A PayPal order already took its lines out of the cart: asking again gives the same order back.
    const sameLines = (existing.method === 'paypal' && lines.length === 0) || sameContent(held, priced)
    if (existing.method !== method || !sameLines) return { kind: 'in_the_way', pending: existing }
    await saveBilling(trx, existing.id, input.billing)
    const order: CreatedOrder = {
      id: existing.id,
      reference: existing.reference,
      currency,
      method,
      totalMinor: existing.total_minor,
      lines: held,
      reused: true,
      stripeSessionId: existing.stripe_session_id,
    }
    return { kind: 'order', order }
  }
  if (lines.length === 0) throw new DomainError('invalid', CART_MESSAGES.empty)
  if (method === 'free' && total > 0) throw new DomainError('invalid', PAYMENT_MESSAGES.notFree)
  const reference = orderReference(input.referencePrefix)
  const order = await insertPendingOrder(trx, {
    userId,
    reference,
    currency,
    // Nothing to pay: no rail, whichever the buyer picked.
    method: total === 0 ? 'free' : method,
    totalMinor: subtotal,
    billing: input.billing,
    discount: discount && discountMinor > 0 ? { code: discount.code, minor: discountMinor } : undefined,
  })
  if (discount && discountMinor > 0) await input.coupon!.reserve(trx, { orderId: order.id, userId, currency, discount })
  await trx
    .insertInto('order_items')
    .values(
      priced.map((line) => ({
        order_id: order.id,
        kind: orderItemKind(line.kind),
        course_id: line.courseId,
        service_package_id: line.packageId,
        plan_id: line.planId,
        item_key: line.key,
        billing_cycle: line.billingCycle,
        recurring_interval: line.recurringInterval,
        title: line.title,
        detail: line.detail,
        unit_price_minor: line.priceMinor,
        bundle_id: line.bundle?.id ?? null,
        bundle_title: line.bundle?.title ?? null,
        discount_minor: line.discountMinor,
        channel: line.kind === 'course' ? (line.channel ?? null) : null,
        refund_id: null,
        refunded_at: null,
      })),
    )
    .execute()
  // PayPal is paid away from the site: the cart empties now, and comes back if the order is cancelled.
  if (total > 0 && method === 'paypal') {
    await input.cart.takeOut(
      trx,
      userId,
      lines.map((line) => line.key),
    )
  }
  const created = {
    id: order.id,
    reference,
    currency,
    method: total === 0 ? ('free' as const) : method,
    totalMinor: total,
    lines: priced,
    reused: false,
  }
  await input.onCreated?.(trx, { ...created, stripeSessionId: null })
  return { kind: 'order', order: { ...created, stripeSessionId: null } }
}

/** A bundle is never an order line: the flow hands in its courses (flows/cart-order.ts). */
function orderItemKind(kind: CartItemKind): OrderItemKind {
  if (kind === 'bundle') throw new Error('A bundle line must be expanded into its courses before the order')
  return kind
}

/** An order's lines as checkout sends them to the gateway (the price snapshot), with their cart keys. */
export async function orderCheckoutLines(db: DB, orderId: string) {
  const rows = await db
    .selectFrom('order_items')
    .select(['item_key', 'kind', 'title', 'detail', 'unit_price_minor', 'recurring_interval', 'plan_id'])
    .select(['billing_cycle', 'discount_minor'])
    .where('order_id', '=', orderId)
    .orderBy('id')
    .execute()
  return rows.map((row) => ({
    key: row.item_key,
    kind: row.kind,
    planId: row.plan_id,
    billingCycle: row.billing_cycle,
    title: row.title,
    detail: row.detail,
    priceMinor: row.unit_price_minor,
    discountMinor: row.discount_minor,
    recurringInterval: row.recurring_interval,
  }))
}

type HeldLine = { key: string; priceMinor: number; discountMinor?: number }
/** Same lines at the same prices with the same discounts (a code applied or removed since makes a new order). */
function sameContent(held: HeldLine[], lines: HeldLine[]) {
  const keys = (list: HeldLine[]) => list.map((l) => `${l.key}@${l.priceMinor}-${l.discountMinor ?? 0}`).sort()
  const a = keys(held)
  const b = keys(lines)
  return a.length === b.length && a.every((value, index) => value === b[index])
}

async function saveBilling(trx: DB, orderId: string, billing: Billing | undefined) {
  if (!billing) return
  await trx
    .updateTable('orders')
    .set({
      billing_name: billing.name ?? null,
      billing_email: billing.email ?? null,
      billing_company: billing.company ?? null,
      billing_address: billing.address ?? null,
      billing_vat_number: billing.vatNumber ?? null,
      updated_at: clock.now(),
    })
    .where('id', '=', orderId)
    .execute()
}

/**
 * A pending order row (no tax yet: subtotal and total are the same); its lines are the caller's. `source` 'cart'
 * (the default) is the cart's one pending order per currency; a membership renewal order stands beside it.
 */
export function insertPendingOrder(
  db: DB,
  order: {
    userId: string
    reference: string
    currency: Currency
    method: PaymentMethod
    totalMinor: number
    billing?: Billing
    source?: 'cart' | 'renewal' | 'gift'
    /** The coupon's discount on the whole order: the total is the subtotal less it. */
    discount?: { code: string; minor: number }
  },
) {
  const billing = order.billing ?? {}
  const discountMinor = order.discount?.minor ?? 0
  return db
    .insertInto('orders')
    .values({
      user_id: order.userId,
      reference: order.reference,
      currency: order.currency,
      method: order.method,
      source: order.source ?? 'cart',
      subtotal_minor: order.totalMinor,
      tax_minor: 0,
      total_minor: order.totalMinor - discountMinor,
      discount_minor: discountMinor,
      coupon_code: order.discount?.code ?? null,
      stripe_session_id: null,
      stripe_subscription_id: null,
      paid_at: null,
      cancelled_at: null,
      status_changed_by: null,
      billing_name: billing.name ?? null,
      billing_email: billing.email ?? null,
      billing_company: billing.company ?? null,
      billing_address: billing.address ?? null,
      billing_vat_number: billing.vatNumber ?? null,
      stripe_payment_intent_id: null,
      expired_at: null,
    })
    .returning('id')
    .executeTakeFirstOrThrow()
}

/** The Stripe Checkout Session opened for a card order: how webhooks and the success page find the order. */
export async function attachStripeSession(db: DB, orderId: string, sessionId: string): Promise<void> {
  await db
    .updateTable('orders')
    .set({ stripe_session_id: sessionId, updated_at: clock.now() })
    .where('id', '=', orderId)
    .execute()
}

/**
 * The recurring lines of a pending card order whose Checkout Session starts a free trial (or no longer does): Stripe
 * charges them nothing at checkout.
 */
export async function setFreeTrialLines(db: DB, orderId: string, freeTrial: boolean): Promise<void> {
  await db
    .updateTable('order_items')
    .set({ free_trial: freeTrial })
    .where('order_id', '=', orderId)
    .where('recurring_interval', 'is not', null)
    .where('free_trial', '!=', freeTrial)
    .execute()
}
