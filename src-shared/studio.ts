// The creator studio's bounds, messages and course states (no zod: the studio's route definitions load it).
export const STUDIO_PAGE_SIZE = 20
export const STUDIO_LIMITS = {
  title: 120,
  subtitle: 200,
  description: 20_000,
  listItems: 20,
  listItemLength: 200,
  sections: 100,
  lessons: 200,
  lessonBody: 100_000,
  /** The highest price a creator may ask, in major units (9,999.99). */
  maxPrice: 9_999.99,
} as const

export const STUDIO_MESSAGES = {
  tooManySections: `A course can have at most ${STUDIO_LIMITS.sections} sections`,
  tooManyLessons: `A course can have at most ${STUDIO_LIMITS.lessons} lessons`,
  titleRequired: 'Please enter a title',
  titleTooLong: `Titles can be at most ${STUDIO_LIMITS.title} characters`,
  price: 'Enter a price such as 19.99 (0 for free), at most 9,999.99',
  arrangement: 'The curriculum changed meanwhile: reload the page and try again',
} as const

/** The course states a creator sees in the studio. */
export const STUDIO_STATES = ['draft', 'in_review', 'changes_requested', 'published', 'unpublished'] as const
export type StudioState = (typeof STUDIO_STATES)[number]
export const STUDIO_STATE_LABELS: Record<StudioState | 'archived', string> = {
  draft: 'Draft',
  in_review: 'In review',
  changes_requested: 'Changes requested',
  published: 'Published',
  unpublished: 'Unpublished',
  archived: 'Archived',
}
