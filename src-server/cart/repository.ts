// Cart rows. Adding checks the catalogue item exists; the unique (user_id, item_key) index refuses duplicates.

import { sql } from 'kysely'
import type { BillingCycle } from '../../db/types.ts'
import { BUNDLE_MESSAGES } from '../../src-shared/schemas/bundles.ts'
import { CART_MESSAGES, type CartItemInput, mixesPlanAndService, planWithCycle } from '../../src-shared/schemas/cart.ts'
import { ownedCourseIds, ownsCourse } from '../access/courses.ts'
import { type DB, lockKeyForTransaction } from '../kernel/db.ts'
import { DomainError } from '../kernel/errors.ts'
import { isUniqueViolation } from '../kernel/pg-errors.ts'
import { catalogueCartLines } from './lines.ts'

export interface AddedItem {
  title: string
  /** Set when a plan took the place of another: "Pro (annual) replaced Basic (monthly) in your cart". */
  replaced?: string
}

/** Inserts the item; returns the title shown in the toast. Throws CONFLICT for a duplicate, NOT_FOUND if unknown. */
export async function addCartItem(db: DB, userId: string, item: CartItemInput): Promise<AddedItem> {
  const { title, values, recurring } = await resolveItem(db, userId, item)
  if (recurring) await refusePlanBesideService(db, userId, { kind: values.kind, ...recurring })
  try {
    if (values.kind === 'plan') return await replacePlan(db, userId, title, values)
    await db
      .insertInto('cart_items')
      .values({ user_id: userId, ...values })
      .execute()
  } catch (error) {
    if (isUniqueViolation(error)) throw new DomainError('conflict', CART_MESSAGES.duplicate)
    throw error
  }
  return { title }
}

/**
 * A cart holds one plan (a unique index says so): another plan or cycle takes the place of the one there. A user's
 * plan changes run one at a time (a transaction-scoped advisory lock), so the second of two at once reads the line the
 * first put in and replaces it. A row lock on the line could not do this: the line is deleted, and a waiter on it finds
 * no line at all, then hits the unique index ("already in your cart") though its plan was not there.
 */
async function replacePlan(
  db: DB,
  userId: string,
  title: string,
  values: { plan_id: string; billing_cycle: BillingCycle } & Record<string, unknown>,
): Promise<AddedItem> {
  return db.transaction().execute(async (trx) => {
    await lockKeyForTransaction(trx, `cart-plan:${userId}`)
    const current = await trx
      .selectFrom('cart_items as ci')
      .innerJoin('plans as p', 'p.id', 'ci.plan_id')
      .select(['ci.id', 'ci.plan_id', 'ci.billing_cycle', 'p.name'])
      .where('ci.user_id', '=', userId)
      .where('ci.kind', '=', 'plan')
      .executeTakeFirst()
    if (current?.plan_id === values.plan_id && current.billing_cycle === values.billing_cycle) {
      throw new DomainError('conflict', CART_MESSAGES.duplicate)
    }
    if (current) await trx.deleteFrom('cart_items').where('id', '=', current.id).execute()
    await trx
      .insertInto('cart_items')
      .values({ user_id: userId, kind: 'plan', plan_id: values.plan_id, billing_cycle: values.billing_cycle })
      .execute()
    if (!current?.billing_cycle) return { title }
    const added = planWithCycle(title, values.billing_cycle)
    return { title, replaced: `${added} replaced ${planWithCycle(current.name, current.billing_cycle)} in your cart` }
  })
}

const NO_REFERENCE = {
  course_id: null,
  service_package_id: null,
  plan_id: null,
  billing_cycle: null,
  bundle_id: null,
  currency: null,
  channel: null,
}

/** A published bundle (issue 32); one whose every course the buyer already holds is refused. */
async function resolveBundle(db: DB, userId: string, bundleId: string) {
  const bundle = await db
    .selectFrom('bundles')
    .select(['id', 'title'])
    .where('id', '=', bundleId)
    .where('published', '=', true)
    .executeTakeFirst()
  if (!bundle) throw new DomainError('not_found', BUNDLE_MESSAGES.notFound)
  const courses = await db.selectFrom('bundle_courses').select('course_id').where('bundle_id', '=', bundle.id).execute()
  const held = await ownedCourseIds(db, userId)
  if (courses.length > 0 && courses.every((row) => held.includes(row.course_id))) {
    throw new DomainError('conflict', BUNDLE_MESSAGES.allOwned)
  }
  return {
    title: bundle.title,
    values: { ...NO_REFERENCE, kind: 'bundle' as const, bundle_id: bundle.id },
    recurring: null,
  }
}

async function resolveItem(db: DB, userId: string, item: CartItemInput) {
  const none = NO_REFERENCE
  if (item.kind === 'course') {
    const course = await db
      .selectFrom('courses')
      .select(['id', 'title'])
      .where('id', '=', item.courseId)
      .where('status', '=', 'published')
      .executeTakeFirst()
    if (!course) throw new DomainError('not_found', 'Course not found')
    if (await ownsCourse(db, userId, course.id)) throw new DomainError('conflict', CART_MESSAGES.alreadyOwned)
    return {
      title: course.title,
      values: {
        ...none,
        kind: 'course' as const,
        course_id: course.id,
        currency: item.currency ?? null,
        // How the buyer reached the course page (analytics' channels); copied to the order line.
        channel: item.from ?? null,
      },
      recurring: null,
    }
  }
  if (item.kind === 'bundle') return resolveBundle(db, userId, item.bundleId)
  if (item.kind === 'service_package') {
    const pkg = await db
      .selectFrom('service_packages as sp')
      .innerJoin('services as s', 's.id', 'sp.service_id')
      .select(['sp.id', 'sp.name', 's.title', 'sp.currency', 'sp.billing_interval'])
      .where('sp.id', '=', item.packageId)
      .executeTakeFirst()
    if (!pkg) throw new DomainError('not_found', 'Service package not found')
    return {
      title: `${pkg.title} - ${pkg.name}`,
      values: { ...none, kind: 'service_package' as const, service_package_id: pkg.id },
      recurring: pkg.billing_interval ? { currency: pkg.currency, recurringInterval: pkg.billing_interval } : null,
    }
  }
  const plan = await db
    .selectFrom('plans')
    .select(['id', 'name', 'currency'])
    .where('id', '=', item.planId)
    .executeTakeFirst()
  if (!plan) throw new DomainError('not_found', 'Plan not found')
  return {
    title: plan.name,
    values: { ...none, kind: 'plan' as const, plan_id: plan.id, billing_cycle: item.billingCycle },
    recurring: { currency: plan.currency, recurringInterval: item.billingCycle === 'annual' ? 'year' : 'month' },
  }
}

/**
 * A plan and a monthly service in the same currency would be checked out together, as one Stripe subscription: the
 * second of them is refused here, and a cart that holds both anyway is refused at checkout (decision 0136).
 */
async function refusePlanBesideService(
  db: DB,
  userId: string,
  adding: { kind: string; currency: string; recurringInterval: string },
) {
  const lines = await catalogueCartLines(db, userId)
  if (mixesPlanAndService([...lines.filter((line) => line.currency === adding.currency), adding])) {
    throw new DomainError('conflict', CART_MESSAGES.planWithService)
  }
}

export async function removeCartItem(db: DB, userId: string, itemId: string): Promise<boolean> {
  const result = await db
    .deleteFrom('cart_items')
    .where('id', '=', itemId)
    .where('user_id', '=', userId)
    .executeTakeFirst()
  return result.numDeletedRows > 0n
}

export async function clearCart(db: DB, userId: string): Promise<number> {
  const result = await db.deleteFrom('cart_items').where('user_id', '=', userId).executeTakeFirst()
  return Number(result.numDeletedRows)
}

/** The lines an order bought leave the cart (paid, or awaiting a bank transfer); lines of another currency stay. */
export async function removePurchasedItems(db: DB, userId: string, itemKeys: readonly string[]): Promise<void> {
  if (itemKeys.length === 0) return
  await db.deleteFrom('cart_items').where('user_id', '=', userId).where('item_key', 'in', itemKeys).execute()
}

/**
 * A cancelled order's lines go back into the cart (what is already there, a plan where the cart holds another, or a
 * course owned meanwhile, is skipped).
 */
export async function restoreItems(
  db: DB,
  userId: string,
  lines: readonly {
    kind: 'course' | 'service_package' | 'plan'
    course_id: string | null
    service_package_id: string | null
    plan_id: string | null
    billing_cycle: 'monthly' | 'annual' | null
    bundle_id?: string | null
  }[],
  /** The order's currency: a course goes back with it as the buyer's choice. */
  currency: 'USD' | 'GBP' | null = null,
): Promise<void> {
  const bundles = new Set<string>()
  for (const line of lines) {
    // A bundle's courses go back as the one bundle line they were bought as (issue 32).
    if (line.bundle_id) {
      if (bundles.has(line.bundle_id)) continue
      bundles.add(line.bundle_id)
      await db
        .insertInto('cart_items')
        .values({ user_id: userId, kind: 'bundle', bundle_id: line.bundle_id })
        .onConflict((oc) => oc.doNothing())
        .execute()
      continue
    }
    if (line.kind === 'course' && line.course_id && (await ownsCourse(db, userId, line.course_id))) continue
    if (!line.course_id && !line.service_package_id && !line.plan_id) continue // deleted from the catalogue
    await db
      .insertInto('cart_items')
      .values({
        user_id: userId,
        kind: line.kind,
        course_id: line.course_id,
        service_package_id: line.service_package_id,
        plan_id: line.plan_id,
        billing_cycle: line.billing_cycle,
        currency: line.kind === 'course' ? currency : null,
      })
      // Any unique conflict: the same item already there, or another plan the buyer chose since (one plan a cart).
      .onConflict((oc) => oc.doNothing())
      .execute()
  }
}

/** PayPal hosted buttons of the services in the user's cart (the payment page offers them). */
export async function listPaypalButtonsInCart(db: DB, userId: string) {
  const rows = await db
    .selectFrom('cart_items as ci')
    .innerJoin('service_packages as sp', 'sp.id', 'ci.service_package_id')
    .innerJoin('services as s', 's.id', 'sp.service_id')
    .select(['s.id', 's.title', 's.paypal'])
    .where('ci.user_id', '=', userId)
    .where(sql<boolean>`(s.paypal->>'enabled')::boolean`)
    .distinct()
    .execute()
  return rows.flatMap((row) =>
    row.paypal?.clientId && row.paypal.hostedButtonId
      ? [
          {
            serviceId: row.id,
            title: row.title,
            clientId: row.paypal.clientId,
            hostedButtonId: row.paypal.hostedButtonId,
          },
        ]
      : [],
  )
}

export async function countCartItems(db: DB, userId: string): Promise<number> {
  // Same rule as the list: a course no longer published is not counted.
  const row = await db
    .selectFrom('cart_items as ci')
    .leftJoin('courses as c', 'c.id', 'ci.course_id')
    .select((eb) => eb.fn.countAll<string>().as('count'))
    .where('ci.user_id', '=', userId)
    .where((eb) => eb.or([eb('ci.course_id', 'is', null), eb('c.status', '=', 'published')]))
    .executeTakeFirstOrThrow()
  return Number(row.count)
}

/** Removes cart lines added before `before` and never bought (the retention job). */
export async function purgeStaleCartItems(db: DB, before: Date): Promise<number> {
  const result = await db.deleteFrom('cart_items').where('added_at', '<', before).executeTakeFirst()
  return Number(result.numDeletedRows)
}
