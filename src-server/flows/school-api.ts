// The REST API's use cases (/api/v1, decision 0060), for one school's key: its owner's courses and their lessons,
// the learners and enrolments on them, the paid lines of their orders and the owner's earnings. Lists are paged by an
// opaque cursor (a keyset where the owner's read has one; the earnings ledger's page number otherwise). Enrolments
// are granted and revoked through the access ledger as staff grants are (source 'staff', granted_by the key's school
// owner), only on the school's own courses; a bought enrolment is refunded, never revoked here. Someone the school has
// no enrolment of yet is invited by e-mail instead (enrolment-invites.ts, decision 0128).

import type { z } from 'zod'
import { coursePrices } from '../../src-shared/course-prices.ts'
import { lineNetMinor } from '../../src-shared/money.ts'
import { fullName } from '../../src-shared/names.ts'
import type {
  ApiCourse,
  ApiEarning,
  ApiEnrolment,
  ApiEnrolmentInvitation,
  ApiLearner,
  ApiLesson,
  ApiOrderLine,
  grantEnrolmentBody,
} from '../../src-shared/schemas/api-v1.ts'
import { API_ENROLMENT_SOURCE } from '../../src-shared/schemas/api-v1.ts'
import { courseGrant, knownLearner, ownerCourseGrantsAfter, ownerLearnersAfter } from '../access/course-holders.ts'
import { revoke } from '../access/ledger.ts'
import { courseOwners, ownerCoursesAfter } from '../catalog/creator-courses.ts'
import { findPublishedCourse } from '../catalog/repository.ts'
import { readCurriculum } from '../catalog/repository-lessons.ts'
import { openEnrolmentInvitesAfter, withdrawEnrolmentInvite } from '../creators/invites.ts'
import { creatorEntries } from '../earnings/statements.ts'
import * as clock from '../kernel/clock.ts'
import { decodeCursor, decodeSyncCursor, encodeCursor } from '../kernel/cursor.ts'
import { type DB, inTransaction } from '../kernel/db.ts'
import { DomainError } from '../kernel/errors.ts'
import { ownerCourseSalesAfter } from '../orders/course-sales.ts'
import type { RateLimiter } from '../security/rate-limit.ts'
import { normaliseEmail } from '../users/email.ts'
import { grantAsSchool, inviteToCourse } from './enrolment-invites.ts'
import { type ApiCaller, assertScope } from './school-api-keys.ts'
import { emitCourseEvent } from './webhook-events.ts'

export interface Page<T> {
  data: T[]
  next_cursor: string | null
}
/** A page of a list clients sync: where to resume later as well (decision 0094). */
export interface SyncPage<T> extends Page<T> {
  sync_cursor: string | null
}
export interface PageRequest {
  cursor?: string
  limit: number
}

const iso = (value: Date | string) => new Date(value).toISOString()

/** Reads limit + 1 rows to know whether another page follows. */
function paged<R, T>(rows: R[], limit: number, map: (row: R) => T, cursorOf: (row: R) => (string | number)[]): Page<T> {
  const more = rows.length > limit
  const shown = more ? rows.slice(0, limit) : rows
  const last = shown.at(-1)
  return { data: shown.map(map), next_cursor: more && last !== undefined ? encodeCursor(cursorOf(last)) : null }
}

/**
 * A page of a list a client syncs (enrolments, orders; decision 0094): `next_cursor` as any page's, and `sync_cursor`,
 * where to resume later — after the page's last row, or where the request started when the page is empty (null when
 * there is nothing yet): rows committed later all come after it.
 */
function syncPaged<R, T>(
  rows: R[],
  limit: number,
  map: (row: R) => T,
  cursorOf: (row: R) => string[],
  after: { xid: string; at: string; id: string } | null,
): SyncPage<T> {
  const page = paged(rows, limit, map, cursorOf)
  const last = rows.slice(0, limit).at(-1)
  const resume = last !== undefined ? cursorOf(last) : after ? [after.xid, after.at, after.id] : null
  return { ...page, sync_cursor: resume ? encodeCursor(resume) : null }
}

export const COURSE_NOT_PUBLISHED = 'This course is not published: enrol learners once it is live in the catalogue'

async function assertSchoolCourse(db: DB, caller: ApiCaller, courseId: string) {
  const owners = await courseOwners(db, [courseId])
  if (owners.get(courseId) !== caller.ownerId) {
    throw new DomainError('forbidden', 'This course is not one of your school’s courses', {
      cause: { code: 'course_not_in_school' },
    })
  }
}

export async function apiCourses(db: DB, caller: ApiCaller, page: PageRequest): Promise<Page<ApiCourse>> {
  assertScope(caller, 'courses:read')
  const after = decodeCursor(page.cursor, ['string'])
  const rows = await ownerCoursesAfter(db, caller.ownerId, (after?.[0] as string) ?? null, page.limit + 1)
  return paged(
    rows,
    page.limit,
    (row) => ({
      id: row.id,
      title: row.title,
      subtitle: row.subtitle,
      // A course sent back for changes is a draft to the outside.
      status: row.status === 'changes_requested' || row.status === 'archived' ? 'draft' : row.status,
      price_minor: row.price_minor,
      currency: row.currency,
      prices: coursePrices(row),
      lessons_count: row.lessons_count,
      students_count: row.students_count,
      published_at: row.published_at ? iso(row.published_at) : null,
      updated_at: iso(row.updated_at),
    }),
    (row) => [row.id],
  )
}

export async function apiLessons(
  db: DB,
  caller: ApiCaller,
  courseId: string,
  page: PageRequest,
): Promise<Page<ApiLesson>> {
  assertScope(caller, 'lessons:read')
  await assertSchoolCourse(db, caller, courseId)
  const after = decodeCursor(page.cursor, ['number'])
  const start = (after?.[0] as number | undefined) ?? 0
  // A course's outline is small (hundreds of lessons at most): its one read, paged by position.
  const lessons = (await readCurriculum(db, courseId)).flatMap((section) =>
    section.lessons.map((lesson) => ({ section, lesson })),
  )
  const rows = lessons.map((entry, position) => ({ ...entry, position })).slice(start, start + page.limit + 1)
  return paged(
    rows,
    page.limit,
    ({ section, lesson, position }) => ({
      id: lesson.id,
      section_id: section.id,
      section_title: section.title,
      position,
      title: lesson.title,
      kind: lesson.kind,
      duration_seconds: lesson.durationSeconds,
      is_preview: lesson.isPreview,
    }),
    (row) => [row.position + 1],
  )
}

export async function apiLearners(db: DB, caller: ApiCaller, page: PageRequest): Promise<Page<ApiLearner>> {
  assertScope(caller, 'learners:read')
  const after = decodeCursor(page.cursor, ['uuid'])
  const rows = await ownerLearnersAfter(db, caller.ownerId, (after?.[0] as string) ?? null, page.limit + 1)
  return paged(
    rows,
    page.limit,
    (row) => ({
      id: row.id,
      email: row.email,
      name: fullName(row.first_name, row.last_name),
      first_enrolled_at: iso(row.first_enrolled_at),
      courses: Number(row.courses),
    }),
    (row) => [row.id],
  )
}

type GrantRow = Awaited<ReturnType<typeof ownerCourseGrantsAfter>>[number]

function toEnrolment(row: GrantRow): ApiEnrolment {
  return {
    id: row.id,
    learner: { id: row.user_id, email: row.email },
    course_id: row.course_id as string,
    source: API_ENROLMENT_SOURCE[row.source],
    status: row.revoked_at ? 'revoked' : row.live ? 'active' : 'ended',
    starts_at: iso(row.starts_at),
    ends_at: row.ends_at ? iso(row.ends_at) : null,
    revoked_at: row.revoked_at ? iso(row.revoked_at) : null,
  }
}

export async function apiEnrolments(
  db: DB,
  caller: ApiCaller,
  page: PageRequest & { courseId?: string },
): Promise<SyncPage<ApiEnrolment>> {
  assertScope(caller, 'enrolments:read')
  if (page.courseId) await assertSchoolCourse(db, caller, page.courseId)
  const after = decodeSyncCursor(page.cursor)
  const rows = await ownerCourseGrantsAfter(db, caller.ownerId, {
    courseId: page.courseId,
    after,
    limit: page.limit + 1,
  })
  return syncPaged(rows, page.limit, toEnrolment, (row) => [row.created_xid_key, row.created_at_key, row.id], after)
}

async function enrolmentById(db: DB, caller: ApiCaller, grantId: string, courseId: string) {
  const [row] = await ownerCourseGrantsAfter(db, caller.ownerId, { courseId, grantId, after: null, limit: 1 })
  if (!row) throw new DomainError('not_found', 'Enrolment not found', { cause: { code: 'not_found' } })
  return toEnrolment(row)
}

/**
 * Enrols a learner the school already knows (by id or address; idempotent, a revoked school grant is given back), or
 * invites anyone else by address (decision 0128): the answer to an address is the same whether or not it has an
 * account here, and an id names only a learner the school already has.
 */
export async function apiGrantEnrolment(
  db: DB,
  caller: ApiCaller,
  body: z.output<typeof grantEnrolmentBody>,
  deps: { limiter: RateLimiter; publicUrl: string },
) {
  assertScope(caller, 'enrolments:write')
  await assertSchoolCourse(db, caller, body.course_id)
  // A learner enrolled in a draft would find the course missing (its pages are the catalogue's): open it first.
  if (!(await findPublishedCourse(db, body.course_id))) {
    throw new DomainError('conflict', COURSE_NOT_PUBLISHED, { cause: { code: 'course_not_published' } })
  }
  const email = body.email ? normaliseEmail(body.email) : null
  const learnerId = await knownLearner(db, caller.ownerId, email ? { email } : { userId: body.user_id as string })
  if (!learnerId && email) {
    const invitation = await inviteToCourse(
      db,
      deps.limiter,
      { ownerId: caller.ownerId, courseId: body.course_id, email },
      deps.publicUrl,
    )
    return { kind: 'invited' as const, invitation: toInvitation(invitation) }
  }
  if (!learnerId) {
    throw new DomainError('not_found', 'No learner of your school has this id: enrol someone new by e-mail', {
      cause: { code: 'learner_not_found' },
    })
  }
  const userId = learnerId
  const { id, created } = await inTransaction(db, (trx) => grantAsSchool(trx, userId, body.course_id, caller.ownerId))
  return { kind: 'enrolled' as const, created, enrolment: await enrolmentById(db, caller, id, body.course_id) }
}

function toInvitation(
  invitation: { id: string; email: string; courseId: string; expiresAt: Date },
  status: ApiEnrolmentInvitation['status'] = 'invited',
): ApiEnrolmentInvitation {
  return {
    id: invitation.id,
    email: invitation.email,
    course_id: invitation.courseId,
    status,
    expires_at: iso(invitation.expiresAt),
  }
}

type InviteRow = { id: string; email: string; course_id: string; expires_at: Date }
const fromRow = (row: InviteRow) => ({
  id: row.id,
  email: row.email,
  courseId: row.course_id,
  expiresAt: row.expires_at,
})

/** The invitations to the school's courses nobody has accepted yet (not expired), by id. */
export async function apiEnrolmentInvitations(db: DB, caller: ApiCaller, page: PageRequest) {
  assertScope(caller, 'enrolments:read')
  const after = decodeCursor(page.cursor, ['uuid'])
  const rows = await openEnrolmentInvitesAfter(db, caller.ownerId, (after?.[0] as string) ?? null, page.limit + 1)
  return paged(
    rows,
    page.limit,
    (row) => toInvitation(fromRow(row)),
    (row) => [row.id],
  )
}

/** Withdraws an invitation nobody has accepted: its link stops working. Another school's, or an accepted one, is not found. */
export async function apiWithdrawEnrolmentInvitation(db: DB, caller: ApiCaller, inviteId: string) {
  assertScope(caller, 'enrolments:write')
  const row = await withdrawEnrolmentInvite(db, caller.ownerId, inviteId)
  if (!row) throw new DomainError('not_found', 'No open invitation to your school’s courses has this id')
  return toInvitation(fromRow(row), 'withdrawn')
}

/** Revokes an enrolment the school granted; one bought, subscribed or free stays (a purchase is refunded instead). */
export async function apiRevokeEnrolment(db: DB, caller: ApiCaller, grantId: string) {
  assertScope(caller, 'enrolments:write')
  const found = await courseGrant(db, grantId)
  const owners = found?.course_id ? await courseOwners(db, [found.course_id]) : new Map<string, string>()
  if (!found?.course_id || owners.get(found.course_id) !== caller.ownerId) {
    throw new DomainError('forbidden', 'This enrolment is not on one of your school’s courses', {
      cause: { code: 'enrolment_not_in_school' },
    })
  }
  if (found.source !== 'staff') {
    throw new DomainError('forbidden', 'Only enrolments your school granted can be revoked; a purchase is refunded', {
      cause: { code: 'not_granted_by_school' },
    })
  }
  const courseId = found.course_id
  await inTransaction(db, async (trx) => {
    // Revoking a revoked enrolment changes nothing and tells the school's webhooks nothing.
    if ((await revoke(trx, { grantId }, 'cancellation', clock.now())) === 0) return
    await emitCourseEvent(trx, courseId, 'enrolment.revoked', {
      enrolmentId: grantId,
      learnerId: found.user_id,
      reason: 'school',
      grantId,
    })
  })
  return enrolmentById(db, caller, grantId, found.course_id)
}

export async function apiOrders(db: DB, caller: ApiCaller, page: PageRequest): Promise<SyncPage<ApiOrderLine>> {
  assertScope(caller, 'orders:read')
  const after = decodeSyncCursor(page.cursor)
  const rows = await ownerCourseSalesAfter(db, caller.ownerId, after, page.limit + 1)
  return syncPaged(
    rows,
    page.limit,
    (row) => ({
      id: row.line_id,
      order_id: row.order_id,
      reference: row.reference,
      status: row.status,
      currency: row.currency,
      paid_at: iso(row.paid_at as Date),
      course_id: row.course_id as string,
      title: row.title,
      amount_minor: lineNetMinor(row),
      refunded_at: row.refunded_at ? iso(row.refunded_at) : null,
    }),
    (row) => [row.paid_xid_key, row.paid_at_key, row.line_id],
    after,
  )
}

/** The owner's ledger postings, newest first (the studio's read; the cursor carries its page number). */
export async function apiEarnings(db: DB, caller: ApiCaller, page: PageRequest): Promise<Page<ApiEarning>> {
  assertScope(caller, 'earnings:read')
  const after = decodeCursor(page.cursor, ['number', 'number'])
  const pageSize = (after?.[1] as number | undefined) ?? page.limit
  const number = (after?.[0] as number | undefined) ?? 1
  if (!Number.isInteger(number) || number < 1 || !Number.isInteger(pageSize) || pageSize < 1 || pageSize > 100) {
    throw new DomainError('invalid', 'This cursor is not one this API gave', { cause: { code: 'invalid_request' } })
  }
  const { entries, total } = await creatorEntries(db, caller.ownerId, number, pageSize)
  return {
    data: entries.map((entry) => ({
      id: entry.transactionId,
      kind: entry.kind,
      description: entry.description,
      at: iso(entry.at),
      currency: entry.currency,
      pending_minor: entry.pendingMinor,
      available_minor: entry.availableMinor,
      paid_out_minor: entry.paidOutMinor,
    })),
    next_cursor: number * pageSize < total ? encodeCursor([number + 1, pageSize]) : null,
  }
}
