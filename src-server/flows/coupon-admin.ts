// Making coupons: staff make store-wide ones (audited), creators on Pro or Enterprise make ones for their own
// courses. A fixed amount above the price of a course it names is refused (the discount would be capped anyway,
// and the editor would be misled).
import { COUPON_MESSAGES, type CouponStatus } from '../../src-shared/promotions.ts'
import type { CouponInput } from '../../src-shared/schemas/promotions.ts'
import { type Actor, record } from '../audit/repository.ts'
import * as clock from '../kernel/clock.ts'
import type { DB } from '../kernel/db.ts'
import { DomainError } from '../kernel/errors.ts'
import {
  coursePrices,
  coursesOwnedBy,
  createCoupon,
  findCoupon,
  listCouponsWithUses,
  setCouponActive,
} from '../promotions/coupons.ts'
import { listPlans } from '../subscriptions/plans.ts'
import { ownerPlanIncludesPromotions } from './creator-standing.ts'

async function refuseFixedAbovePrice(db: DB, input: CouponInput) {
  if (input.kind === 'fixed' && input.appliesTo === 'plans') {
    // A plan coupon takes its amount off each payment it covers: never more than a plan's monthly price.
    for (const plan of await listPlans(db)) {
      const off = input.amountsOff[plan.currency as 'USD' | 'GBP']
      if (off !== undefined && off > plan.monthlyPriceMinor) {
        throw new DomainError('invalid', COUPON_MESSAGES.fixedAbovePlanPrice, { field: 'amountsOff' })
      }
    }
    return
  }
  if (input.kind !== 'fixed' || input.appliesTo !== 'courses') return
  for (const course of await coursePrices(db, input.courseIds)) {
    const off = input.amountsOff[course.currency as 'USD' | 'GBP']
    if (off !== undefined && off > course.price_minor) {
      throw new DomainError('invalid', COUPON_MESSAGES.fixedAbovePrice, { field: 'amountsOff' })
    }
  }
}

/**
 * A code that has ended before it is made could never be used, and its row would only look like a live one: refused
 * under the field (the server's clock decides; the schema, shared with the browser, checks only the order of dates).
 */
function refusePastEnd(input: CouponInput) {
  if (input.endsAt && Date.parse(input.endsAt) <= clock.now().getTime()) {
    throw new DomainError('invalid', COUPON_MESSAGES.endsInPast, { field: 'endsAt' })
  }
}

export async function createStoreCoupon(db: DB, input: CouponInput, actor: Actor) {
  refusePastEnd(input)
  await refuseFixedAbovePrice(db, input)
  return db.transaction().execute(async (trx) => {
    const created = await createCoupon(trx, input, actor.id)
    await record(trx, actor, 'coupon.create', { type: 'coupon', id: created.id, after: input })
    return created
  })
}

export async function setStoreCouponActive(db: DB, couponId: string, active: boolean, actor: Actor) {
  return db.transaction().execute(async (trx) => {
    const before = await findCoupon(trx, couponId)
    if (!before) throw new DomainError('not_found', COUPON_MESSAGES.notFound)
    await setCouponActive(trx, couponId, active)
    await record(trx, actor, active ? 'coupon.enable' : 'coupon.disable', {
      type: 'coupon',
      id: couponId,
      before: { active: before.active },
      after: { active },
    })
    return { id: couponId, active }
  })
}

/**
 * The coupon tables' status, with the one rule checkout adds (`stillOffered`, flows/coupon-checkout.ts): a creator's
 * own code still to run is Paused while their plan does not include coupons, for staff as in the studio.
 */
async function withPlanPauses<T extends { status: CouponStatus; creatorId: string | null; madeByCreator: boolean }>(
  db: DB,
  coupons: readonly T[],
): Promise<T[]> {
  const allowed = new Map<string, boolean>()
  for (const coupon of coupons) {
    if (coupon.madeByCreator && coupon.creatorId && !allowed.has(coupon.creatorId)) {
      allowed.set(coupon.creatorId, await ownerPlanIncludesPromotions(db, coupon.creatorId))
    }
  }
  return coupons.map((coupon) =>
    coupon.creatorId &&
    allowed.get(coupon.creatorId) === false &&
    coupon.madeByCreator &&
    (coupon.status === 'active' || coupon.status === 'scheduled')
      ? { ...coupon, status: 'paused' as const }
      : coupon,
  )
}

export async function listStoreCoupons(db: DB) {
  return withPlanPauses(db, await listCouponsWithUses(db))
}

async function assertCouponPlan(db: DB, creatorId: string) {
  if (!(await ownerPlanIncludesPromotions(db, creatorId)))
    throw new DomainError('forbidden', COUPON_MESSAGES.planRequired)
}

/** A creator's coupon: their chosen courses, or all their courses; never anyone else's. */
export async function createCreatorCoupon(db: DB, creatorId: string, input: CouponInput) {
  await assertCouponPlan(db, creatorId)
  refusePastEnd(input)
  if (input.appliesTo !== 'courses' && input.appliesTo !== 'creator') {
    throw new DomainError('forbidden', COUPON_MESSAGES.notYourCourse, { field: 'appliesTo' })
  }
  if (input.appliesTo === 'courses') {
    const courses = await coursePrices(db, input.courseIds)
    if (courses.length !== new Set(input.courseIds).size || courses.some((c) => c.owner_id !== creatorId)) {
      throw new DomainError('forbidden', COUPON_MESSAGES.notYourCourse, { field: 'courseIds' })
    }
  }
  await refuseFixedAbovePrice(db, input)
  return createCoupon(db, { ...input, creatorId }, creatorId)
}

export async function listCreatorCoupons(db: DB, creatorId: string) {
  return {
    allowed: await ownerPlanIncludesPromotions(db, creatorId),
    coupons: await withPlanPauses(db, await listCouponsWithUses(db, creatorId)),
    courses: await coursesOwnedBy(db, creatorId),
  }
}

export async function setCreatorCouponActive(db: DB, creatorId: string, couponId: string, active: boolean) {
  // Turning a code back on is making it usable again: only on a plan with coupons, as creating one is.
  if (active) await assertCouponPlan(db, creatorId)
  await setCouponActive(db, couponId, active, creatorId)
  return { id: couponId, active }
}
