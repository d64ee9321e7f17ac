// Review rules and wording shared by the server and the course page (no zod here, so the page's summary does not
// pull the schema library in).
import { groupDigits } from './numbers.ts'

export const REVIEW_MAX_LENGTH = 2000
export const REVIEWS_PAGE_SIZE = 10
export const STAR_VALUES = [5, 4, 3, 2, 1] as const

/** Why the signed-in user may not write a review (null: they may). */
export type ReviewBlocker = 'signed_out' | 'no_access' | 'no_completed_lesson'

export const REVIEW_MESSAGES = {
  signed_out: 'Log in to review this course',
  no_access: 'Only learners with access to this course can review it',
  no_completed_lesson: 'Complete at least one lesson of this course to review it',
  duplicate: 'You have already reviewed this course',
  notYours: 'You can only change your own review',
  notFound: 'Review not found',
  courseNotFound: 'Course not found',
  ratingRequired: 'Please choose a rating from 1 to 5 stars',
  tooLong: `Your review must be at most ${groupDigits(REVIEW_MAX_LENGTH)} characters`,
  created: 'Thank you! Your review is published.',
  updated: 'Your review has been updated.',
  deleted: 'Your review has been deleted.',
  hidden: 'Review hidden',
  shown: 'Review visible again',
} as const

/** A course's rating summary: average to one decimal (0 with no reviews), count, and reviews per star. */
export interface RatingSummary {
  average: number
  count: number
  stars: { stars: number; count: number }[]
}

/** The admin's review filter. Here, not in schemas/reviews.ts: the admin route's search params load with the first
 * page, and that module would bring the full zod along. */
export const REVIEW_VISIBILITY = ['all', 'visible', 'hidden'] as const
