// The one helper the flows call when something a school's webhooks report happens (decision 0061): in the caller's
// transaction it writes a delivery per subscribed endpoint of the course's school, so the event is sent if and only
// if the change commits. A course without a school, or a school without endpoints, costs one or two reads. Each
// event's data is typed by its documented shape (WEBHOOK_EVENT_DATA, shown on /developers/api; decision 0141).

import { lineNetMinor } from '../../src-shared/money.ts'
import { API_ENROLMENT_SOURCE } from '../../src-shared/schemas/api-v1.ts'
import type { WebhookEventData, WebhookEventType } from '../../src-shared/schemas/webhooks.ts'
import { courseGrantsOfLines } from '../access/course-holders.ts'
import { type School, schoolById, schoolOfCourse, schoolsOfCourses } from '../creators/schools.ts'
import * as clock from '../kernel/clock.ts'
import type { DB } from '../kernel/db.ts'
import { newEventId, recordEvent } from '../webhooks/deliveries.ts'
import { ownerPlanIncludes } from './creator-standing.ts'

/** The events about one course (all but bundle.purchased), whose data names the course. */
type CourseEventType = Exclude<WebhookEventType, 'bundle.purchased'>

/**
 * The schools of courses already read in a transaction, by course id (null: the course has none). A paid order emits
 * up to three events per course (order.paid, enrolment.granted, bundle.purchased), and a course's owner does not change
 * inside the transaction that pays for it. Kept per transaction only: outside one, a creator may open a school between
 * two calls.
 */
const schoolsReadIn = new WeakMap<DB, Map<string, School | null>>()

/** Reads the schools of these courses in one query, for the events the transaction is about to emit about them. */
export async function readSchoolsOfCourses(trx: DB, courseIds: readonly string[]): Promise<void> {
  if (!trx.isTransaction) return
  const known = schoolsReadIn.get(trx) ?? new Map<string, School | null>()
  schoolsReadIn.set(trx, known)
  const unknown = [...new Set(courseIds)].filter((id) => !known.has(id))
  const schools = await schoolsOfCourses(trx, unknown)
  for (const id of unknown) known.set(id, schools.get(id) ?? null)
}

async function courseSchool(trx: DB, courseId: string): Promise<School | null> {
  if (!trx.isTransaction) return schoolOfCourse(trx, courseId)
  if (!schoolsReadIn.get(trx)?.has(courseId)) await readSchoolsOfCourses(trx, [courseId])
  return schoolsReadIn.get(trx)?.get(courseId) ?? null
}

export async function emitCourseEvent<T extends CourseEventType>(
  trx: DB,
  courseId: string,
  type: T,
  data: Omit<WebhookEventData<T>, 'courseId'>,
): Promise<void> {
  const school = await courseSchool(trx, courseId)
  if (!school) return
  await emitSchoolEvent(trx, school.id, type, { courseId, ...data } as WebhookEventData<T>)
}

/** An event about several of a school's courses at once (a bundle), written for that school's endpoints. */
async function emitSchoolEvent<T extends WebhookEventType>(
  trx: DB,
  schoolId: string,
  type: T,
  data: WebhookEventData<T>,
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
    const school = await courseSchool(trx, line.course_id)
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
      courseIds: group.lines.map((line) => line.course_id as string),
      orderItemIds: group.lines.map((line) => line.id),
      amountMinor: group.lines.reduce((sum, line) => sum + lineNetMinor(line), 0),
      currency: order.currency,
    })
  }
}

/**
 * order.refunded and enrolment.revoked for the course lines given back (refund or dispute); refunds settle a line once.
 * enrolment.revoked names the enrolment the line gave (the REST API's id) and its holder (a gift's recipient, not
 * its buyer); a line that enrolled nobody (a gift not claimed yet) revokes no enrolment.
 */
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
  const enrolments = await courseGrantsOfLines(
    trx,
    lines.map((line) => line.id),
  )
  for (const line of lines) {
    if (!line.course_id) continue
    const common = { orderId: line.order_id, orderItemId: line.id }
    await emitCourseEvent(trx, line.course_id, 'order.refunded', {
      ...common,
      learnerId: line.user_id,
      amountMinor: lineNetMinor(line),
      currency: line.currency,
      cause,
    })
    for (const enrolment of enrolments.filter((grant) => grant.order_item_id === line.id)) {
      await emitCourseEvent(trx, line.course_id, 'enrolment.revoked', {
        ...common,
        enrolmentId: enrolment.id,
        learnerId: enrolment.user_id,
        reason: cause,
      })
    }
  }
}

/**
 * enrolment.granted for a new (or given back) course grant: the REST API's id and name of its source
 * (GET /api/v1/enrolments), so a receiver finds the enrolment the event is about (decision 0141).
 */
export async function emitEnrolmentGranted(
  trx: DB,
  courseId: string,
  enrolment: { id: string; source: Exclude<keyof typeof API_ENROLMENT_SOURCE, 'subscription'> },
  data: Omit<WebhookEventData<'enrolment.granted'>, 'courseId' | 'enrolmentId' | 'source'>,
): Promise<void> {
  await emitCourseEvent(trx, courseId, 'enrolment.granted', {
    enrolmentId: enrolment.id,
    source: API_ENROLMENT_SOURCE[enrolment.source],
    ...data,
  })
}
