// The one helper the flows call when something a school's webhooks report happens (decision 0061): in the caller's
// transaction it writes a delivery per subscribed endpoint of the course's school, so the event is sent if and only
// if the change commits. A course without a school, or a school without endpoints, costs one or two reads.

import { lineNetMinor } from '../../src-shared/money.ts'
import type { WebhookEventType } from '../../src-shared/schemas/webhooks.ts'
import { schoolById, schoolOfCourse } from '../creators/schools.ts'
import * as clock from '../kernel/clock.ts'
import type { DB } from '../kernel/db.ts'
import { newEventId, recordEvent } from '../webhooks/deliveries.ts'
import { ownerPlanIncludes } from './creator-standing.ts'

export async function emitCourseEvent(
  trx: DB,
  courseId: string,
  type: WebhookEventType,
  data: Record<string, unknown>,
): Promise<void> {
  const school = await schoolOfCourse(trx, courseId)
  if (!school) return
  await emitSchoolEvent(trx, school.id, type, { courseId, ...data })
}

/** An event about several of a school's courses at once (a bundle), written for that school's endpoints. */
async function emitSchoolEvent(
  trx: DB,
  schoolId: string,
  type: WebhookEventType,
  data: Record<string, unknown>,
): Promise<void> {
  const timestamp = clock.now()
  // Webhooks are Enterprise's: a school whose owner's plan lapsed or went down sends none, as its page then hides the
  // endpoints and its API keys are refused.
  const planHasWebhooks = async () => {
    const school = await schoolById(trx, schoolId)
    return school ? ownerPlanIncludes(trx, school.ownerId, 'webhooks', timestamp) : false
  }
  await recordEvent(trx, schoolId, { id: newEventId(), type, timestamp, data }, planHasWebhooks)
}

/**
 * bundle.purchased for a paid order's bundle lines (a bundle is one order line per course, decision 0057): one event
 * per bundle and school, naming that school's courses and lines of it and their stored shares. A staff bundle of
 * several schools' courses tells each school about its own courses only.
 */
export async function emitBundlesPaid(trx: DB, order: { id: string; userId: string; currency: string }): Promise<void> {
  const lines = await trx
    .selectFrom('order_items')
    .select(['id', 'course_id', 'bundle_id', 'bundle_title', 'unit_price_minor', 'discount_minor'])
    .where('order_id', '=', order.id)
    .where('kind', '=', 'course')
    .where('bundle_id', 'is not', null)
    .orderBy('id')
    .execute()
  if (lines.length === 0) return
  const groups = new Map<string, { schoolId: string; bundleId: string; title: string | null; lines: typeof lines }>()
  for (const line of lines) {
    if (!line.course_id || !line.bundle_id) continue
    const school = await schoolOfCourse(trx, line.course_id)
    if (!school) continue
    const key = `${line.bundle_id}:${school.id}`
    const group = groups.get(key) ?? {
      schoolId: school.id,
      bundleId: line.bundle_id,
      title: line.bundle_title,
      lines: [],
    }
    group.lines.push(line)
    groups.set(key, group)
  }
  for (const group of groups.values()) {
    await emitSchoolEvent(trx, group.schoolId, 'bundle.purchased', {
      bundleId: group.bundleId,
      bundleTitle: group.title,
      orderId: order.id,
      learnerId: order.userId,
      courseIds: group.lines.map((line) => line.course_id),
      orderItemIds: group.lines.map((line) => line.id),
      amountMinor: group.lines.reduce((sum, line) => sum + lineNetMinor(line), 0),
      currency: order.currency,
    })
  }
}

/** order.refunded and enrolment.revoked for the course lines given back (refund or dispute); refunds settle a line once. */
export async function emitLinesGivenBack(
  trx: DB,
  orderItemIds: readonly string[],
  cause: 'refund' | 'dispute',
): Promise<void> {
  if (orderItemIds.length === 0) return
  const lines = await trx
    .selectFrom('order_items as i')
    .innerJoin('orders as o', 'o.id', 'i.order_id')
    .select(['i.id', 'i.order_id', 'i.course_id', 'i.unit_price_minor', 'i.discount_minor', 'o.user_id', 'o.currency'])
    .where('i.id', 'in', orderItemIds)
    .where('i.kind', '=', 'course')
    .execute()
  for (const line of lines) {
    if (!line.course_id) continue
    const common = { orderId: line.order_id, orderItemId: line.id, learnerId: line.user_id }
    await emitCourseEvent(trx, line.course_id, 'order.refunded', {
      ...common,
      amountMinor: lineNetMinor(line),
      currency: line.currency,
      cause,
    })
    await emitCourseEvent(trx, line.course_id, 'enrolment.revoked', { ...common, reason: cause })
  }
}
