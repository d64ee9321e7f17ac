// Creators' earnings in the money path: a paid order credits each creator-owned course line (in the payment's
// transaction), and lines given back (refund, lost dispute) take back exactly the share they credited.
import type { CartItemKind } from '../../db/types.ts'
import { EARNINGS_HOLD_DAYS, platformFeeBasisPoints } from '../../src-shared/creator-plans.ts'
import { type Currency, lineNetMinor } from '../../src-shared/money.ts'
import { courseOwners } from '../catalog/creator-courses.ts'
import { courseShares } from '../creators/course-instructors.ts'
import { recordSale, releaseDueHolds } from '../earnings/shares.ts'
import type { DB } from '../kernel/db.ts'
import { erasedAmong, holdAgainstErasure } from '../privacy/deletions.ts'
import { currentSubscription } from '../subscriptions/premium.ts'

export interface PaidLines {
  orderId: string
  currency: Currency
  paidAt: Date
  /** Paid through Stripe: each line's part of Stripe's fee is taken once Stripe reports it (processor-fees.ts). */
  processorFeeDue?: boolean
  lines: readonly {
    id: string
    kind: CartItemKind
    course_id: string | null
    unit_price_minor: number
    /** The line's stored share of the order's coupon: the creator's share is of what the buyer paid. */
    discount_minor?: number
  }[]
  /**
   * The course lines' owners as holdCreatorsOfLines read them (a course's owner is set when it is created and never
   * changes): read here when absent.
   */
  owners?: ReadonlyMap<string, string>
}

const DAY_MS = 86_400_000

/**
 * Holds the creators the paid course lines credit (owners and co-instructors) against their erasure until the
 * payment commits (privacy/deletions.ts holdAgainstErasure): first thing in the payment, before any course row is
 * locked, so the sale and an erasure always meet in the same order.
 */
export async function holdCreatorsOfLines(trx: DB, lines: PaidLines['lines']): Promise<Map<string, string>> {
  const courseIds = lines.flatMap((line) => (line.kind === 'course' && line.course_id ? [line.course_id] : []))
  if (courseIds.length === 0) return new Map()
  const owners = await courseOwners(trx, courseIds)
  const instructors = await courseShares(trx, courseIds)
  const people = [...owners.values(), ...[...instructors.values()].flat().map((share) => share.userId)]
  await holdAgainstErasure(trx, people)
  // The owners, for creditCreatorSales. Not the instructors: an erasure the hold waited for has taken its person off
  // the courses they co-taught, so the credit reads the team again.
  return owners
}

/** Credits the owners of the paid course lines; idempotent per line. Returns how many lines were credited. */
export async function creditCreatorSales(trx: DB, order: PaidLines): Promise<number> {
  const courseLines = order.lines.filter((line) => line.kind === 'course' && line.course_id && lineNetMinor(line) > 0)
  const owners =
    order.owners ??
    (await courseOwners(
      trx,
      courseLines.map((line) => line.course_id as string),
    ))
  // Co-instructors share the creators' part by the owner's percentages in force at the sale (read after the hold).
  const instructors = await courseShares(
    trx,
    courseLines.map((line) => line.course_id as string),
  )
  // An order paid after its course's owner was erased (a bank transfer arriving late): the course is the house's now.
  const erased = await erasedAmong(trx, [
    ...new Set(courseLines.flatMap((line) => owners.get(line.course_id as string) ?? [])),
  ])
  let credited = 0
  const planOf = new Map<string, string | null>()
  for (const line of courseLines) {
    const creatorId = owners.get(line.course_id as string)
    if (!creatorId || erased.has(creatorId)) continue
    // The fee of the plan the creator holds at the moment of sale.
    if (!planOf.has(creatorId)) {
      planOf.set(creatorId, (await currentSubscription(trx, creatorId, order.paidAt))?.held_plan_id ?? null)
    }
    const planId = planOf.get(creatorId) ?? null
    const recorded = await recordSale(trx, {
      orderItemId: line.id,
      orderId: order.orderId,
      courseId: line.course_id as string,
      creatorId,
      currency: order.currency,
      netMinor: lineNetMinor(line),
      feeBasisPoints: platformFeeBasisPoints(planId),
      planId,
      paidAt: order.paidAt,
      holdUntil: new Date(order.paidAt.getTime() + EARNINGS_HOLD_DAYS * DAY_MS),
      recipients: recipientsOf(instructors.get(line.course_id as string), creatorId),
      processorFeeDue: order.processorFeeDue ?? false,
    })
    if (recorded) credited++
  }
  return credited
}

/** The course's instructors with a share; the owner alone when the course has no team rows (or none sums up). */
export function recipientsOf(shares: { userId: string; basisPoints: number }[] | undefined, ownerId: string) {
  const paid = (shares ?? []).filter((share) => share.basisPoints > 0)
  if (paid.reduce((sum, share) => sum + share.basisPoints, 0) !== 10_000)
    return [{ creatorId: ownerId, basisPoints: 10_000 }]
  return paid.map((share) => ({ creatorId: share.userId, basisPoints: share.basisPoints }))
}

/** Releases every share past its refund window, in batches (each its own transaction) until none is due. */
export async function releaseAllDueHolds(db: DB, now: Date): Promise<number> {
  let released = 0
  for (let batch = await releaseDueHolds(db, now); batch > 0; batch = await releaseDueHolds(db, now)) released += batch
  return released
}
