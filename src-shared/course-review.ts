// Submitting a course for review: the checklist the server enforces before a course goes to staff (and the publish
// page shows live), the items a reviewer may comment on, and the words for each state. Shared by client and server.

export const REVIEW_DESCRIPTION_MIN = 200
export const REVIEW_LESSONS_MIN = 5

export type ChecklistItemId = 'image' | 'description' | 'lessons' | 'preview' | 'videos' | 'quizzes' | 'plan'

export interface ChecklistItem {
  id: ChecklistItemId
  label: string
  done: boolean
  /** Why it is not done (or how far along it is), shown beside the item and as the refusal's message. */
  detail: string
}

export const CHECKLIST_LABELS: Record<ChecklistItemId, string> = {
  image: 'A course image (not the placeholder)',
  description: `A description of at least ${REVIEW_DESCRIPTION_MIN} characters`,
  lessons: `At least ${REVIEW_LESSONS_MIN} lessons`,
  preview: 'At least one free preview lesson',
  videos: 'Every video lesson processed (an uploaded video with its length, or a YouTube/Vimeo link)',
  quizzes: 'Every quiz lesson has at least one question',
  plan: 'A creator plan with a free publishing slot',
}

/** What a reviewer may comment on besides the checklist items (a lesson is commented on as "lesson: <title>"). */
export const REVIEW_FREE_ITEMS = ['title', 'subtitle', 'price', 'curriculum', 'other'] as const

export const REVIEW_ITEM_LABELS: Record<string, string> = {
  ...CHECKLIST_LABELS,
  image: 'Image',
  description: 'Description',
  lessons: 'Lessons',
  preview: 'Preview lesson',
  videos: 'Videos',
  quizzes: 'Quizzes',
  plan: 'Plan',
  title: 'Title',
  subtitle: 'Subtitle',
  price: 'Price',
  curriculum: 'Curriculum',
  other: 'Other',
}

/** "lesson: Intro" → "Lesson “Intro”"; a known item → its label; anything else as written. */
export function reviewItemLabel(item: string): string {
  if (item.startsWith('lesson:')) return `Lesson “${item.slice('lesson:'.length).trim()}”`
  return REVIEW_ITEM_LABELS[item] ?? item
}

export type SubmissionKind = 'first' | 'revision'
export type SubmissionStatus = 'pending' | 'approved' | 'changes_requested' | 'withdrawn'

export const SUBMISSION_STATUS_LABELS: Record<SubmissionStatus, string> = {
  pending: 'Waiting for review',
  approved: 'Approved',
  changes_requested: 'Changes requested',
  withdrawn: 'Withdrawn',
}

/** The fields of a published course whose edits wait in a draft revision for review (course_drafts.fields keys). */
export const REVISION_FIELDS = ['title', 'priceUsdMinor', 'priceGbpMinor', 'description'] as const
export type RevisionField = (typeof REVISION_FIELDS)[number]
