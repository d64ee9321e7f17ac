// Coupons: the codes staff and creators make, the one code applied to a cart, and who may use them. promotions/
// owns coupons, coupon_applications and coupon_redemptions. A use is a redemption row whose order is live (pending,
// awaiting a transfer, or paid): an order that expires, fails or is cancelled gives its use back by itself.
import { sql } from 'kysely'
import type { CouponScope, PlanCouponDuration } from '../../db/types.ts'
import { type Currency, formatMoney } from '../../src-shared/money.ts'
import { fullName } from '../../src-shared/names.ts'
import {
  belowMinimumRefusal,
  COUPON_MESSAGES,
  COUPON_REFUSALS,
  type CouponRefusal,
  type CouponStatus,
} from '../../src-shared/promotions.ts'
import type { CouponInput } from '../../src-shared/schemas/promotions.ts'
import * as clock from '../kernel/clock.ts'
import type { DB } from '../kernel/db.ts'
import { DomainError } from '../kernel/errors.ts'
import { isForeignKeyViolation, isUniqueViolation } from '../kernel/pg-errors.ts'
import { normaliseEmail } from '../users/email.ts'
import type { PricedCoupon } from './coupon-pricing.ts'

/** Orders that hold a use: waiting for payment, or paid (refunded later or not). */
export const LIVE_ORDER_STATUSES = [
  'pending',
  'awaiting_transfer',
  'paid',
  'partially_refunded',
  'refunded',
  'disputed',
] as const
const PAID_STATUSES = ['paid', 'partially_refunded', 'refunded', 'disputed'] as const

export interface Coupon extends PricedCoupon {
  id: string
  code: string
  startsAt: Date | null
  endsAt: Date | null
  maxUses: number | null
  maxUsesPerCustomer: number | null
  firstPurchaseOnly: boolean
  active: boolean
  /** A plan coupon's duration (Stripe's): how many of the plan's payments it discounts. */
  planDuration: PlanCouponDuration | null
  planDurationMonths: number | null
  /** Made by the creator whose courses it covers (a studio coupon), not by staff: offered while their plan has coupons. */
  madeByCreator: boolean
}

const COLUMNS = [
  'id',
  'code',
  'kind',
  'percent_off',
  'amounts_off',
  'min_amounts',
  'applies_to',
  'course_ids',
  'creator_id',
  'starts_at',
  'ends_at',
  'max_uses',
  'max_uses_per_customer',
  'first_purchase_only',
  'active',
  'plan_duration',
  'plan_duration_months',
  'created_by',
] as const

type Row = {
  id: string
  code: string
  kind: 'percent' | 'fixed'
  percent_off: number | null
  amounts_off: PricedCoupon['amountsOff']
  min_amounts: PricedCoupon['minAmounts']
  applies_to: CouponScope
  course_ids: string[]
  creator_id: string | null
  starts_at: Date | null
  ends_at: Date | null
  max_uses: number | null
  max_uses_per_customer: number | null
  first_purchase_only: boolean
  active: boolean
  plan_duration: PlanCouponDuration | null
  plan_duration_months: number | null
  created_by: string
}

function toCoupon(row: Row): Coupon {
  return {
    id: row.id,
    code: row.code,
    kind: row.kind,
    percentOff: row.percent_off,
    amountsOff: row.amounts_off,
    minAmounts: row.min_amounts,
    appliesTo: row.applies_to,
    courseIds: row.course_ids,
    creatorId: row.creator_id,
    startsAt: row.starts_at,
    endsAt: row.ends_at,
    maxUses: row.max_uses,
    maxUsesPerCustomer: row.max_uses_per_customer,
    firstPurchaseOnly: row.first_purchase_only,
    active: row.active,
    planDuration: row.plan_duration,
    planDurationMonths: row.plan_duration_months,
    madeByCreator: row.creator_id !== null && row.created_by === row.creator_id,
  }
}

/** An active coupon by its code (any case), or undefined. */
export async function findCouponByCode(db: DB, code: string): Promise<Coupon | undefined> {
  const row = await db
    .selectFrom('coupons')
    .select(COLUMNS)
    .where('code', '=', code.trim().toUpperCase())
    .where('active', '=', true)
    .executeTakeFirst()
  return row ? toCoupon(row) : undefined
}

export async function findCoupon(db: DB, id: string): Promise<Coupon | undefined> {
  const row = await db.selectFrom('coupons').select(COLUMNS).where('id', '=', id).executeTakeFirst()
  return row ? toCoupon(row) : undefined
}

/** The customer a per-customer limit counts: the account's e-mail as users/ normalises it, less any +tag. */
export function customerMailbox(email: string): string {
  const [local = '', domain = ''] = normaliseEmail(email).split('@')
  return `${local.split('+')[0]}@${domain}`
}

/**
 * Refusals that do not depend on the cart: the window, the limits, first purchase. The buyer's own pending cart
 * orders are not counted (checkout reuses or retires them before it reserves) unless `countOwnPending`, which the
 * reservation for a new order asks for.
 */
export async function refusalFor(
  db: DB,
  coupon: Coupon,
  buyer: { id: string; email: string },
  { countOwnPending = false }: { countOwnPending?: boolean } = {},
): Promise<CouponRefusal | null> {
  const skip = countOwnPending ? null : buyer.id
  const now = clock.now()
  if (!coupon.active) return 'unknown'
  if (coupon.startsAt && now < coupon.startsAt) return 'notStarted'
  if (coupon.endsAt && now >= coupon.endsAt) return 'expired'
  const left = await usesLeft(db, coupon, buyer, skip)
  if (left.inAll !== null && left.inAll <= 0) return 'usedUp'
  if (left.byBuyer !== null && left.byBuyer <= 0) return 'alreadyUsed'
  if (coupon.firstPurchaseOnly && (await hasPaidOrder(db, buyer.id))) return 'firstPurchaseOnly'
  return null
}

/**
 * How many more orders the buyer may place with the code by the limits `refusalFor` counts (its uses left, the
 * buyer's uses left, one for a first purchase), or null when none caps it. A cart of two currencies is two orders: a
 * code with one order left comes off the first of them only.
 */
export async function ordersLeftFor(
  db: DB,
  coupon: Coupon,
  buyer: { id: string; email: string },
): Promise<number | null> {
  const { inAll, byBuyer } = await usesLeft(db, coupon, buyer, buyer.id)
  const caps = [inAll, byBuyer, coupon.firstPurchaseOnly ? 1 : null].filter((cap) => cap !== null)
  return caps.length > 0 ? Math.max(0, Math.min(...caps)) : null
}

/** The code's uses left in all and the buyer's own, null where it sets no such limit (`skip`: as liveUseQuery's). */
async function usesLeft(db: DB, coupon: Coupon, buyer: { id: string; email: string }, skip: string | null) {
  const mailbox = customerMailbox(buyer.email)
  return {
    inAll: coupon.maxUses === null ? null : coupon.maxUses - (await liveUses(db, coupon.id, skip)),
    byBuyer:
      coupon.maxUsesPerCustomer === null
        ? null
        : coupon.maxUsesPerCustomer - (await liveUsesBy(db, coupon.id, buyer.id, mailbox, skip)),
  }
}

/** What the buyer is told: under the minimum, the minimum itself (in the currency of the cart's lines it priced). */
export function refusalText(reason: CouponRefusal, minimum?: { currency: Currency; amountMinor: number }): string {
  if (reason === 'belowMinimum' && minimum)
    return belowMinimumRefusal(formatMoney(minimum.amountMinor, minimum.currency))
  return COUPON_REFUSALS[reason]
}

export function refusal(reason: CouponRefusal, minimum?: { currency: Currency; amountMinor: number }): DomainError {
  const code = reason === 'unknown' ? 'not_found' : 'invalid'
  return new DomainError(code, refusalText(reason, minimum), { field: 'code' })
}

/** Live uses of the coupon; `skipPendingOf`: not those of that user's pending cart orders. */
function liveUseQuery(db: DB, couponId: string, skipPendingOf: string | null) {
  let query = db
    .selectFrom('coupon_redemptions as r')
    .innerJoin('orders as o', 'o.id', 'r.order_id')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('r.coupon_id', '=', couponId)
    .where('o.status', 'in', LIVE_ORDER_STATUSES)
  if (skipPendingOf) {
    query = query.where((eb) =>
      eb.not(
        eb.and([eb('o.user_id', '=', skipPendingOf), eb('o.status', '=', 'pending'), eb('o.source', '=', 'cart')]),
      ),
    )
  }
  return query
}

async function liveUses(db: DB, couponId: string, skipPendingOf: string | null): Promise<number> {
  const row = await liveUseQuery(db, couponId, skipPendingOf).executeTakeFirstOrThrow()
  return Number(row.n)
}

async function liveUsesBy(
  db: DB,
  couponId: string,
  userId: string,
  email: string,
  skipPendingOf: string | null,
): Promise<number> {
  const row = await liveUseQuery(db, couponId, skipPendingOf)
    .where((eb) => eb.or([eb('r.user_id', '=', userId), eb('r.email_normalized', '=', email)]))
    .executeTakeFirstOrThrow()
  return Number(row.n)
}

async function hasPaidOrder(db: DB, userId: string): Promise<boolean> {
  const row = await db
    .selectFrom('orders')
    .select('id')
    .where('user_id', '=', userId)
    .where('status', 'in', PAID_STATUSES)
    .executeTakeFirst()
  return row !== undefined
}

/**
 * Holds one use of the coupon for a new order, in the order's transaction. The coupon's row is locked first
 * (SELECT … FOR UPDATE), so checkouts of one code take turns: each counts the uses the ones before it committed, and
 * the limit is never passed (tests/integration/promotions/coupon-concurrency.test.ts; without the lock 50 parallel
 * checkouts of a limit-10 code gave 12 orders, and 10 of one customer limited to 1 gave 4). Throws the refusal when it is used up or used by this buyer.
 */
export async function reserveUse(
  trx: DB,
  use: { couponId: string; orderId: string; userId: string; currency: Currency; discountMinor: number },
): Promise<void> {
  const row = await trx
    .selectFrom('coupons')
    .select(COLUMNS)
    .where('id', '=', use.couponId)
    .forUpdate()
    .executeTakeFirst()
  if (!row) throw refusal('unknown')
  const user = await trx.selectFrom('users').select('email').where('id', '=', use.userId).executeTakeFirstOrThrow()
  const reason = await refusalFor(trx, toCoupon(row), { id: use.userId, email: user.email }, { countOwnPending: true })
  if (reason) throw refusal(reason)
  await trx
    .insertInto('coupon_redemptions')
    .values({
      coupon_id: use.couponId,
      order_id: use.orderId,
      user_id: use.userId,
      email_normalized: customerMailbox(user.email),
      currency: use.currency,
      discount_minor: use.discountMinor,
    })
    .execute()
}

/** The code applied to the user's cart, if any. */
export async function appliedCoupon(db: DB, userId: string): Promise<Coupon | undefined> {
  const row = await db
    .selectFrom('coupon_applications as a')
    .innerJoin('coupons as c', 'c.id', 'a.coupon_id')
    .select(COLUMNS.map((column) => `c.${column}` as const))
    .where('a.user_id', '=', userId)
    .executeTakeFirst()
  return row ? toCoupon(row as Row) : undefined
}

/** One code per cart: applying another replaces it. */
export async function applyToCart(db: DB, userId: string, couponId: string): Promise<void> {
  await db
    .insertInto('coupon_applications')
    .values({ user_id: userId, coupon_id: couponId, applied_at: clock.now() })
    .onConflict((oc) => oc.column('user_id').doUpdateSet({ coupon_id: couponId, applied_at: clock.now() }))
    .execute()
}

export async function removeFromCart(db: DB, userId: string): Promise<boolean> {
  const result = await db.deleteFrom('coupon_applications').where('user_id', '=', userId).executeTakeFirst()
  return result.numDeletedRows > 0n
}

/** A new coupon; `creatorId` set for a studio coupon. Throws conflict when the code is taken. */
export async function createCoupon(db: DB, input: CouponInput, createdBy: string): Promise<{ id: string }> {
  try {
    return await db
      .insertInto('coupons')
      .values({
        code: input.code,
        kind: input.kind,
        percent_off: input.kind === 'percent' ? input.percentOff : null,
        amounts_off: JSON.stringify(input.kind === 'fixed' ? input.amountsOff : {}),
        min_amounts: JSON.stringify(input.minAmounts),
        applies_to: input.appliesTo,
        course_ids: JSON.stringify(input.appliesTo === 'courses' ? input.courseIds : []),
        creator_id: input.creatorId,
        starts_at: input.startsAt ? new Date(input.startsAt) : null,
        ends_at: input.endsAt ? new Date(input.endsAt) : null,
        max_uses: input.maxUses,
        max_uses_per_customer: input.maxUsesPerCustomer,
        first_purchase_only: input.firstPurchaseOnly,
        plan_duration: input.appliesTo === 'plans' ? input.planDuration : null,
        plan_duration_months: input.appliesTo === 'plans' ? input.planDurationMonths : null,
        created_by: createdBy,
      })
      .returning('id')
      .executeTakeFirstOrThrow()
  } catch (error) {
    if (isUniqueViolation(error)) {
      throw new DomainError('conflict', COUPON_MESSAGES.taken, { field: 'code' })
    }
    // A creator id that names no account (the schema checks only its shape).
    if (isForeignKeyViolation(error)) {
      throw new DomainError('invalid', 'Choose an existing creator', { field: 'creatorId' })
    }
    throw error
  }
}

/** Switches a coupon off (or on again); its past uses stay. */
export async function setCouponActive(db: DB, couponId: string, active: boolean, creatorId?: string) {
  let query = db.updateTable('coupons').set({ active }).where('id', '=', couponId)
  if (creatorId) query = query.where('creator_id', '=', creatorId).where('created_by', '=', creatorId)
  const result = await query.executeTakeFirst()
  if (result.numUpdatedRows === 0n) throw new DomainError('not_found', COUPON_MESSAGES.notFound)
}

/**
 * Coupons with their uses (paid orders), held uses (orders awaiting payment), revenue per currency (what the paid
 * orders charged after the discount, less refunds), their status now and what they cover (the chosen courses' titles,
 * the creator's name). `madeBy`: only the coupons that creator made (staff see all).
 */
export async function listCouponsWithUses(db: DB, madeBy?: string) {
  let query = db
    .selectFrom('coupons as c')
    .leftJoin('coupon_redemptions as r', 'r.coupon_id', 'c.id')
    .leftJoin('orders as o', 'o.id', 'r.order_id')
    .leftJoin('users as cr', 'cr.id', 'c.creator_id')
    .select([
      'c.id',
      'c.code',
      'c.kind',
      'c.percent_off as percentOff',
      'c.amounts_off as amountsOff',
      'c.min_amounts as minAmounts',
      'c.applies_to as appliesTo',
      'c.course_ids',
      'c.starts_at',
      'c.ends_at',
      'c.max_uses as maxUses',
      'c.max_uses_per_customer as maxUsesPerCustomer',
      'c.first_purchase_only as firstPurchaseOnly',
      'c.active',
      'c.plan_duration as planDuration',
      'c.plan_duration_months as planDurationMonths',
      'c.creator_id as creatorId',
      'c.created_by',
      'cr.first_name as creator_first_name',
      'cr.last_name as creator_last_name',
      'cr.email as creator_email',
    ])
    .select([
      sql<string>`count(o.id) filter (where o.status in ('paid','partially_refunded','refunded','disputed'))`.as(
        'uses',
      ),
      sql<string>`count(o.id) filter (where o.status in ('pending','awaiting_transfer'))`.as('held'),
      sql<
        string | null
      >`sum(o.total_minor - o.refunded_minor) filter (where o.currency = 'USD' and o.status in ('paid','partially_refunded','refunded','disputed'))`.as(
        'revenue_usd',
      ),
      sql<
        string | null
      >`sum(o.total_minor - o.refunded_minor) filter (where o.currency = 'GBP' and o.status in ('paid','partially_refunded','refunded','disputed'))`.as(
        'revenue_gbp',
      ),
    ])
    .groupBy(['c.id', 'cr.id'])
    .orderBy('c.created_at', 'desc')
    .limit(500)
  if (madeBy) query = query.where('c.created_by', '=', madeBy).where('c.creator_id', '=', madeBy)
  const rows = await query.execute()
  const titles = await courseTitles(
    db,
    rows.flatMap((row) => row.course_ids),
  )
  const now = clock.now()
  return rows.map(
    ({
      starts_at,
      ends_at,
      uses,
      held,
      revenue_usd,
      revenue_gbp,
      course_ids,
      created_by,
      creator_first_name,
      creator_last_name,
      creator_email,
      ...coupon
    }) => ({
      ...coupon,
      startsAt: starts_at?.toISOString() ?? null,
      endsAt: ends_at?.toISOString() ?? null,
      uses: Number(uses),
      held: Number(held),
      // A creator's own code (offered only while their plan includes coupons: flows/coupon-admin.ts pauses it).
      madeByCreator: coupon.creatorId !== null && created_by === coupon.creatorId,
      status: couponStatus(
        { active: coupon.active, startsAt: starts_at, endsAt: ends_at, maxUses: coupon.maxUses },
        Number(uses) + Number(held),
        now,
      ),
      // The chosen courses (a deleted one by its id), and the creator whose courses it covers.
      courses: course_ids.map((id) => ({ id, title: titles.get(id) ?? id })),
      creatorName: coupon.creatorId
        ? fullName(creator_first_name ?? '', creator_last_name ?? '') || (creator_email ?? null)
        : null,
      revenue: [
        ...(revenue_usd !== null ? [{ currency: 'USD' as const, amountMinor: Number(revenue_usd) }] : []),
        ...(revenue_gbp !== null ? [{ currency: 'GBP' as const, amountMinor: Number(revenue_gbp) }] : []),
      ],
    }),
  )
}

/**
 * Where a code stands now, by the rules Apply code follows (`refusalFor`): switched off, past its end, its uses all
 * taken (a use held by an order awaiting payment counts, as it does there), not started yet, or active.
 */
export function couponStatus(
  coupon: { active: boolean; startsAt: Date | null; endsAt: Date | null; maxUses: number | null },
  liveUses: number,
  now: Date,
): CouponStatus {
  if (!coupon.active) return 'off'
  if (coupon.endsAt && now >= coupon.endsAt) return 'ended'
  if (coupon.maxUses !== null && liveUses >= coupon.maxUses) return 'usedUp'
  if (coupon.startsAt && now < coupon.startsAt) return 'scheduled'
  return 'active'
}

async function courseTitles(db: DB, courseIds: readonly string[]): Promise<Map<string, string>> {
  if (courseIds.length === 0) return new Map()
  const rows = await db
    .selectFrom('courses')
    .select(['id', 'title'])
    .where('id', 'in', [...new Set(courseIds)])
    .execute()
  return new Map(rows.map((row) => [row.id, row.title]))
}

/** Owners of courses (for creator coupons): id → owner id. */
export async function courseOwners(db: DB, courseIds: readonly string[]): Promise<Map<string, string | null>> {
  if (courseIds.length === 0) return new Map()
  const rows = await db.selectFrom('courses').select(['id', 'owner_id']).where('id', 'in', courseIds).execute()
  return new Map(rows.map((row) => [row.id, row.owner_id]))
}

/** A creator's own courses, to choose from in the studio's coupon editor. */
export function coursesOwnedBy(db: DB, creatorId: string) {
  return db
    .selectFrom('courses')
    .select(['id', 'title'])
    .where('owner_id', '=', creatorId)
    .orderBy('title')
    .limit(500)
    .execute()
}

/** A plan coupon's duration by the order that used it (the Stripe coupon of a plan checkout copies it). */
export async function planDurationOfOrder(db: DB, orderId: string) {
  return db
    .selectFrom('coupon_redemptions as r')
    .innerJoin('coupons as c', 'c.id', 'r.coupon_id')
    .select(['c.code', 'c.plan_duration', 'c.plan_duration_months'])
    .where('r.order_id', '=', orderId)
    .executeTakeFirst()
}

/** The lowest price, per currency, of the given courses (a fixed coupon may not exceed it). */
export async function coursePrices(db: DB, courseIds: readonly string[]) {
  if (courseIds.length === 0) return []
  return db
    .selectFrom('courses')
    .select(['id', 'price_minor', 'currency', 'owner_id'])
    .where('id', 'in', courseIds)
    .execute()
}

/**
 * An erased person's redemptions keep the coupon's count and the order, not their mailbox (decision 0107): a "once
 * per customer" limit no longer follows an address nobody holds an account under.
 */
export async function forgetRedemptionMailbox(trx: DB, userId: string, replacement: string): Promise<void> {
  await trx
    .updateTable('coupon_redemptions')
    .set({ email_normalized: replacement })
    .where('user_id', '=', userId)
    .execute()
}
