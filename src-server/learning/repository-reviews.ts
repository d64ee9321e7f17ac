// Reads and writes of course_reviews (learning/ is its only writer). Authors are shown by first name and last
// initial only; hidden reviews, and reviews whose author lost the course (learning/review-access.ts), count nowhere
// and are listed only to staff and to their author.

import { sql } from 'kysely'
import type { RatingSummary } from '../../src-shared/reviews.ts'
import * as clock from '../kernel/clock.ts'
import type { DB } from '../kernel/db.ts'
import { pageOf } from '../kernel/paging.ts'

/** 'Jane D.': the learner's first name and last initial (never the full name or e-mail). */
export function reviewerName(firstName: string, lastName: string): string {
  const first = firstName.trim()
  const initial = lastName.trim().charAt(0).toUpperCase()
  if (!first) return initial ? `${initial}.` : 'A learner'
  return initial ? `${first} ${initial}.` : first
}

const reviewColumns = [
  'r.id',
  'r.course_id',
  'r.user_id',
  'r.rating',
  'r.body',
  'r.hidden_at',
  'r.created_at',
  'r.updated_at',
  'u.first_name',
  'u.last_name',
] as const

type ReviewRow = {
  id: string
  course_id: string
  user_id: string
  rating: number
  body: string
  hidden_at: Date | null
  created_at: Date
  updated_at: Date
  first_name: string
  last_name: string
}

/** What every list shows of a review. */
export function toReview(row: ReviewRow) {
  return {
    id: row.id,
    rating: row.rating,
    body: row.body,
    author: reviewerName(row.first_name, row.last_name),
    createdAt: row.created_at.toISOString(),
    // Edited: saved again after it was first written.
    edited: row.updated_at.getTime() - row.created_at.getTime() > 1000,
    hidden: row.hidden_at !== null,
  }
}

function reviewsWithAuthors(db: DB) {
  return db.selectFrom('course_reviews as r').innerJoin('users as u', 'u.id', 'r.user_id')
}

export function findReview(db: DB, id: string) {
  return reviewsWithAuthors(db).select(reviewColumns).where('r.id', '=', id).executeTakeFirst()
}

export function findOwnReview(db: DB, userId: string, courseId: string) {
  return reviewsWithAuthors(db)
    .select(reviewColumns)
    .where('r.user_id', '=', userId)
    .where('r.course_id', '=', courseId)
    .executeTakeFirst()
}

/** Visible reviews of a course, newest first, one page, and how many there are. */
export async function listVisibleReviews(db: DB, courseId: string, page: number, pageSize: number) {
  const visible = reviewsWithAuthors(db)
    .where('r.course_id', '=', courseId)
    .where('r.hidden_at', 'is', null)
    .where('r.access_revoked', '=', false)
  return pageOf(visible.select(reviewColumns).orderBy('r.created_at', 'desc').orderBy('r.id', 'desc'), page, pageSize)
}

/** The aggregate of a course's visible reviews, computed from the rows: average to one decimal, count, per star. */
export async function computeRatingSummary(db: DB, courseId: string): Promise<RatingSummary> {
  const row = await db
    .selectFrom('course_reviews')
    .select([
      sql<string>`count(*)`.as('count'),
      sql<string>`coalesce(round(avg(rating)::numeric, 1), 0)`.as('average'),
      sql<string>`count(*) filter (where rating = 5)`.as('s5'),
      sql<string>`count(*) filter (where rating = 4)`.as('s4'),
      sql<string>`count(*) filter (where rating = 3)`.as('s3'),
      sql<string>`count(*) filter (where rating = 2)`.as('s2'),
      sql<string>`count(*) filter (where rating = 1)`.as('s1'),
    ])
    .where('course_id', '=', courseId)
    .where('hidden_at', 'is', null)
    .where('access_revoked', '=', false)
    .executeTakeFirstOrThrow()
  return {
    average: Number(row.average),
    count: Number(row.count),
    stars: [
      { stars: 5, count: Number(row.s5) },
      { stars: 4, count: Number(row.s4) },
      { stars: 3, count: Number(row.s3) },
      { stars: 2, count: Number(row.s2) },
      { stars: 1, count: Number(row.s1) },
    ],
  }
}

export function insertReview(trx: DB, review: { courseId: string; userId: string; rating: number; body: string }) {
  return trx
    .insertInto('course_reviews')
    .values({ course_id: review.courseId, user_id: review.userId, rating: review.rating, body: review.body })
    .onConflict((oc) => oc.columns(['course_id', 'user_id']).doNothing())
    .returning('id')
    .executeTakeFirst()
}

export async function updateReviewContent(trx: DB, id: string, content: { rating: number; body: string }) {
  await trx
    .updateTable('course_reviews')
    .set({ rating: content.rating, body: content.body, updated_at: clock.now() })
    .where('id', '=', id)
    .execute()
}

export async function deleteReviewRow(trx: DB, id: string) {
  await trx.deleteFrom('course_reviews').where('id', '=', id).execute()
}

export async function setReviewHiddenRow(trx: DB, id: string, hiddenBy: string | null) {
  await trx
    .updateTable('course_reviews')
    .set(hiddenBy ? { hidden_at: clock.now(), hidden_by: hiddenBy } : { hidden_at: null, hidden_by: null })
    .where('id', '=', id)
    .execute()
}

/** Staff's list: every review (hidden ones too), newest first, with its course. */
export async function listReviewsForStaff(
  db: DB,
  filter: { visibility: 'all' | 'visible' | 'hidden'; courseId?: string },
  page: number,
  pageSize: number,
) {
  let query = reviewsWithAuthors(db).innerJoin('courses as c', 'c.id', 'r.course_id')
  if (filter.courseId) query = query.where('r.course_id', '=', filter.courseId)
  if (filter.visibility === 'visible') query = query.where('r.hidden_at', 'is', null)
  if (filter.visibility === 'hidden') query = query.where('r.hidden_at', 'is not', null)
  return pageOf(
    query
      .select([...reviewColumns, 'c.title as course_title'])
      .orderBy('r.created_at', 'desc')
      .orderBy('r.id', 'desc'),
    page,
    pageSize,
  )
}

/** The average of the visible reviews of several courses together (each review counts once), and their count. */
export async function ratingAcrossCourses(db: DB, courseIds: string[]): Promise<{ average: number; count: number }> {
  if (courseIds.length === 0) return { average: 0, count: 0 }
  const row = await db
    .selectFrom('course_reviews')
    .select([sql<string>`count(*)`.as('count'), sql<string>`coalesce(round(avg(rating)::numeric, 1), 0)`.as('average')])
    .where('course_id', 'in', courseIds)
    .where('hidden_at', 'is', null)
    .where('access_revoked', '=', false)
    .executeTakeFirstOrThrow()
  return { average: Number(row.average), count: Number(row.count) }
}
