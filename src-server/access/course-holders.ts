// Who holds the courses of one owner (the REST API's learners and enrolments, decision 0060): course grants on the
// owner's courses, paged by a keyset (created_xid, created_at, id) in the order their transactions began writing, and
// only grants whose transaction ended before the oldest one still running (decision 0094), so a client syncing with
// the cursor never misses a row committed after it read; and one course's holders now (a live session's announcement,
// decision 0142). Reads only; the ledger's writes stay in ledger.ts.
import { sql } from 'kysely'
import * as clock from '../kernel/clock.ts'
import { afterXidKeyset, committedBefore } from '../kernel/cursor.ts'
import type { DB } from '../kernel/db.ts'
import { isLive } from './ledger.ts'

/**
 * A grant's place in the keyset: its creating transaction's id (xid8 as text), its created_at as the database prints
 * it (microseconds kept) and its id.
 */
export interface HolderCursor {
  xid: string
  at: string
  id: string
}

/** Course grants on the owner's courses, joined to the course (c) and the holder (u): both reads below start here. */
function ownerCourseGrants(db: DB, ownerId: string) {
  return db
    .selectFrom('access_grants')
    .innerJoin('courses as c', 'c.id', 'access_grants.course_id')
    .innerJoin('users as u', 'u.id', 'access_grants.user_id')
    .where('access_grants.kind', '=', 'course')
    .where('c.owner_id', '=', ownerId)
}

/**
 * Course grants (live or ended) on the owner's courses, optionally one course's, or the one grant `grantId`. A page
 * (no `grantId`) holds only grants whose transaction has ended before every one still running (committedBefore).
 */
export async function ownerCourseGrantsAfter(
  db: DB,
  ownerId: string,
  options: { courseId?: string; grantId?: string; after: HolderCursor | null; limit: number },
  now = clock.now(),
) {
  let query = ownerCourseGrants(db, ownerId)
    .select([
      'access_grants.id',
      'access_grants.user_id',
      'u.email',
      'access_grants.course_id',
      'access_grants.source',
      'access_grants.starts_at',
      'access_grants.ends_at',
      'access_grants.revoked_at',
      'access_grants.created_at',
      sql<string>`access_grants.created_at::text`.as('created_at_key'),
      sql<string>`access_grants.created_xid::text`.as('created_xid_key'),
    ])
    .select(isLive(now).as('live'))
  if (options.courseId) query = query.where('access_grants.course_id', '=', options.courseId)
  if (options.grantId) query = query.where('access_grants.id', '=', options.grantId)
  else query = query.where(committedBefore('access_grants.created_xid'))
  const after = options.after
  if (after) {
    const columns = { xid: 'access_grants.created_xid', time: 'access_grants.created_at', id: 'access_grants.id' }
    query = query.where(afterXidKeyset(columns, after))
  }
  return query
    .orderBy('access_grants.created_xid')
    .orderBy('access_grants.created_at')
    .orderBy('access_grants.id')
    .limit(options.limit)
    .execute()
}

/** People holding a live grant on one of the owner's courses, by user id after `after`. */
export async function ownerLearnersAfter(
  db: DB,
  ownerId: string,
  after: string | null,
  limit: number,
  now = clock.now(),
) {
  let query = ownerCourseGrants(db, ownerId)
    .select([
      'u.id',
      'u.email',
      'u.first_name',
      'u.last_name',
      sql<Date>`min(access_grants.starts_at)`.as('first_enrolled_at'),
      sql<string>`count(distinct access_grants.course_id)`.as('courses'),
    ])
    .where(isLive(now))
    .groupBy(['u.id', 'u.email', 'u.first_name', 'u.last_name'])
  if (after !== null) query = query.where('u.id', '>', after)
  return query.orderBy('u.id').limit(limit).execute()
}

/**
 * The account, found by id or by address, that holds or held one of the owner's courses: a learner the school already
 * knows (its enrolments list them); undefined for anyone else, whether or not they have an account (decision 0128).
 */
export async function knownLearner(db: DB, ownerId: string, who: { userId: string } | { email: string }) {
  const query = ownerCourseGrants(db, ownerId).select('u.id').limit(1)
  const row = await ('userId' in who
    ? query.where('u.id', '=', who.userId)
    : query.where((eb) => eb(eb.fn('lower', ['u.email']), '=', who.email.toLowerCase()))
  ).executeTakeFirst()
  return row?.id
}

/** One course grant's course, holder and source (the REST API checks the course is the school's). */
export async function courseGrant(db: DB, grantId: string) {
  return db
    .selectFrom('access_grants')
    .select(['id', 'course_id', 'user_id', 'source'])
    .where('id', '=', grantId)
    .where('kind', '=', 'course')
    .executeTakeFirst()
}

/** The course grants (live or revoked) order lines gave, with their holders: a refund's enrolment.revoked names them. */
export async function courseGrantsOfLines(db: DB, orderItemIds: readonly string[]) {
  if (orderItemIds.length === 0) return []
  return db
    .selectFrom('access_grants')
    .select(['id', 'order_item_id', 'user_id'])
    .where('order_item_id', 'in', [...orderItemIds])
    .where('kind', '=', 'course')
    .orderBy('id')
    .execute()
}

/** How many learners hold at least one course now (a live course grant): the home page's active students. */
export async function countCourseHolders(db: DB): Promise<number> {
  const row = await db
    .selectFrom('access_grants')
    .select(sql<number>`count(distinct user_id)::int`.as('learners'))
    .where('kind', '=', 'course')
    .where('revoked_at', 'is', null)
    .executeTakeFirst()
  return row?.learners ?? 0
}

/** Who holds the course now (a live course grant, bought, free or staff-given), by user id: a session's announcement. */
export async function courseHoldersNow(db: DB, courseId: string, now = clock.now()): Promise<string[]> {
  const rows = await db
    .selectFrom('access_grants')
    .select('user_id')
    .distinct()
    .where('kind', '=', 'course')
    .where('course_id', '=', courseId)
    .where(isLive(now))
    .orderBy('user_id')
    .execute()
  return rows.map((row) => row.user_id)
}
