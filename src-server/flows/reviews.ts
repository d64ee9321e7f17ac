// Verified reviews: writing, editing and deleting one's own, and staff hiding one. Every change recomputes the
// course's shown rating and review count from the rows in the same transaction, with the course row locked so
// concurrent changes of one course take turns and the aggregate stays exact.

import { REVIEW_MESSAGES } from '../../src-shared/reviews.ts'
import * as audit from '../audit/repository.ts'
import type { SessionUser } from '../auth/types.ts'
import { lockCourseForRating, setCourseRating } from '../catalog/course-rating.ts'
import type { DB } from '../kernel/db.ts'
import { DomainError } from '../kernel/errors.ts'
import {
  computeRatingSummary,
  deleteReviewRow,
  findOwnReview,
  findReview,
  insertReview,
  setReviewHiddenRow,
  toReview,
  updateReviewContent,
} from '../learning/repository-reviews.ts'
import { reviewBlocker } from './review-eligibility.ts'

type Author = Pick<SessionUser, 'id' | 'role'>
interface ReviewContent {
  rating: number
  body: string
}

/** Runs `change` with the course locked, then sets the course's aggregate from its visible reviews. */
async function changeCourseReviews<T>(db: DB, courseId: string, change: (trx: DB) => Promise<T>): Promise<T> {
  return db.transaction().execute(async (trx) => {
    if (!(await lockCourseForRating(trx, courseId))) throw new DomainError('not_found', REVIEW_MESSAGES.courseNotFound)
    const result = await change(trx)
    const summary = await computeRatingSummary(trx, courseId)
    await setCourseRating(trx, courseId, summary)
    return result
  })
}

export async function createReview(db: DB, user: Author, courseId: string, content: ReviewContent) {
  const blocker = await reviewBlocker(db, user, courseId)
  if (blocker) throw new DomainError('forbidden', REVIEW_MESSAGES[blocker])
  const id = await changeCourseReviews(db, courseId, async (trx) => {
    // Asked again under the course's lock, which a refund or dispute also takes while it revokes the grant and flags
    // the author's reviews (access/holder-effects.ts): a revocation that committed meanwhile refuses the review here
    // instead of letting it count for an author who no longer holds the course.
    const blockedNow = await reviewBlocker(trx, user, courseId)
    if (blockedNow) throw new DomainError('forbidden', REVIEW_MESSAGES[blockedNow])
    // The unique key (course, user) decides between two concurrent first reviews: the second inserts nothing.
    const inserted = await insertReview(trx, { courseId, userId: user.id, ...content })
    if (!inserted) throw new DomainError('conflict', REVIEW_MESSAGES.duplicate)
    return inserted.id
  })
  return ownReview(db, id)
}

/** The author's review, or a refusal naming why it is not theirs to change. */
async function authorsReview(db: DB, user: Author, id: string) {
  const review = await findReview(db, id)
  if (!review) throw new DomainError('not_found', REVIEW_MESSAGES.notFound)
  if (review.user_id !== user.id) throw new DomainError('forbidden', REVIEW_MESSAGES.notYours)
  return review
}

export async function updateReview(db: DB, user: Author, id: string, content: ReviewContent) {
  const review = await authorsReview(db, user, id)
  await changeCourseReviews(db, review.course_id, (trx) => updateReviewContent(trx, id, content))
  return ownReview(db, id)
}

export async function deleteReview(db: DB, user: Author, id: string) {
  const review = await authorsReview(db, user, id)
  await changeCourseReviews(db, review.course_id, (trx) => deleteReviewRow(trx, id))
  return { id, courseId: review.course_id }
}

/** Staff (editor and up; the router checks the role) hide a review or show it again; audited with the change. */
export async function setReviewHidden(db: DB, actor: audit.Actor, id: string, hidden: boolean) {
  const found = await findReview(db, id)
  if (!found) throw new DomainError('not_found', REVIEW_MESSAGES.notFound)
  await changeCourseReviews(db, found.course_id, async (trx) => {
    // Read again under the course lock: a repeated or concurrent click changes (and audits) nothing twice.
    const review = await findReview(trx, id)
    if (!review) throw new DomainError('not_found', REVIEW_MESSAGES.notFound)
    if ((review.hidden_at !== null) === hidden) return
    await setReviewHiddenRow(trx, id, hidden ? actor.id : null)
    const state = (isHidden: boolean) => ({ courseId: review.course_id, rating: review.rating, hidden: isHidden })
    await audit.record(trx, actor, hidden ? 'review.hide' : 'review.show', {
      type: 'review',
      id,
      before: state(!hidden),
      after: state(hidden),
    })
  })
  return { id, hidden }
}

async function ownReview(db: DB, id: string) {
  const row = await findReview(db, id)
  if (!row) throw new DomainError('not_found', REVIEW_MESSAGES.notFound)
  return toReview(row)
}

/** The course page's "your review" panel: may the user review, and their review if they wrote one. */
export async function myReview(db: DB, user: Author | null, courseId: string) {
  const [blocker, review] = await Promise.all([
    reviewBlocker(db, user, courseId),
    user ? findOwnReview(db, user.id, courseId) : undefined,
  ])
  return { blocker, review: review ? toReview(review) : null }
}
