// What staff read in the review queue (/admin/course-reviews): the pending submissions, oldest first, and one
// submission with its course, curriculum, checklist and — for a revision — its edits beside the live values.

import { sql } from 'kysely'
import { coursePrices, coursePricesLabel } from '../../src-shared/course-prices.ts'
import type { RevisionField } from '../../src-shared/course-review.ts'
import { fullName } from '../../src-shared/names.ts'
import { REVIEW_QUEUE_PAGE_SIZE } from '../../src-shared/schemas/course-review.ts'
import * as clock from '../kernel/clock.ts'
import type { DB } from '../kernel/db.ts'
import { DomainError } from '../kernel/errors.ts'
import { pageOf } from '../kernel/paging.ts'
import { userContact } from '../users/contact.ts'
import { courseChecklist, draftFields, findCourseForReview, findSubmission, reviewLessons } from './course-review.ts'

const DAY_MS = 24 * 60 * 60 * 1000

export async function reviewQueue(
  db: DB,
  filter: { kind: 'all' | 'first' | 'revision'; minAgeDays: number; page: number },
  now = clock.now(),
) {
  let query = db
    .selectFrom('course_submissions as s')
    .innerJoin('courses as c', 'c.id', 's.course_id')
    .leftJoin('users as u', 'u.id', 'c.owner_id')
    .where('s.status', '=', 'pending')
  if (filter.kind !== 'all') query = query.where('s.kind', '=', filter.kind)
  if (filter.minAgeDays > 0)
    query = query.where('s.created_at', '<=', new Date(now.getTime() - filter.minAgeDays * DAY_MS))
  const { rows, ...paging } = await pageOf(
    query
      .select([
        's.id',
        's.kind',
        's.created_at',
        'c.id as course_id',
        'c.title',
        'c.status as course_status',
        'u.email as owner_email',
        sql<string>`trim(coalesce(u.first_name, '') || ' ' || coalesce(u.last_name, ''))`.as('owner_name'),
      ])
      .orderBy('s.created_at')
      .orderBy('s.id'),
    filter.page,
    REVIEW_QUEUE_PAGE_SIZE,
  )
  return {
    items: rows.map((row) => ({
      id: row.id,
      kind: row.kind,
      submittedAt: row.created_at,
      ageDays: Math.floor((now.getTime() - row.created_at.getTime()) / DAY_MS),
      courseId: row.course_id,
      courseTitle: row.title,
      courseStatus: row.course_status,
      ownerEmail: row.owner_email,
      ownerName: row.owner_name,
    })),
    ...paging,
  }
}

type ReviewedCourse = NonNullable<Awaited<ReturnType<typeof findCourseForReview>>>
const liveValue = (course: ReviewedCourse, field: string) =>
  field === 'title'
    ? course.title
    : field === 'priceUsdMinor'
      ? coursePrices(course).USD
      : field === 'priceGbpMinor'
        ? coursePrices(course).GBP
        : course.description

/**
 * The revision's changes: title and description as written, the two prices as one "price" change read the way a
 * buyer sees them ("$49.99 or £39.99" → "$59.99 or £49.99"), so the reviewer checks the price in every currency.
 */
function revisionDiff(course: ReviewedCourse, draft: Partial<Record<RevisionField, unknown>>) {
  const changed = (field: RevisionField) => field in draft && draft[field] !== liveValue(course, field)
  const diff: { field: string; live: unknown; draft: unknown }[] = []
  for (const field of ['title', 'description'] as const) {
    if (changed(field)) diff.push({ field, live: liveValue(course, field), draft: draft[field] })
  }
  if (changed('priceUsdMinor') || changed('priceGbpMinor')) {
    const live = coursePrices(course)
    const asPrice = (value: unknown, fallback: number | null) =>
      value === null ? null : typeof value === 'number' ? value : fallback
    const next = {
      USD: 'priceUsdMinor' in draft ? asPrice(draft.priceUsdMinor, live.USD) : live.USD,
      GBP: 'priceGbpMinor' in draft ? asPrice(draft.priceGbpMinor, live.GBP) : live.GBP,
    }
    diff.push({ field: 'price', live: coursePricesLabel(live), draft: coursePricesLabel(next) })
  }
  return diff
}

export async function reviewDetail(db: DB, submissionId: string) {
  const submission = await findSubmission(db, submissionId)
  if (!submission) throw new DomainError('not_found', 'Submission not found')
  const course = await findCourseForReview(db, submission.course_id)
  if (!course) throw new DomainError('not_found', 'Course not found')
  const [draft, lessons, owner, history] = await Promise.all([
    draftFields(db, course.id),
    reviewLessons(db, course.id),
    course.owner_id ? userContact(db, course.owner_id) : undefined,
    db
      .selectFrom('course_submissions')
      .select(['id', 'kind', 'status', 'comments', 'created_at', 'decided_at'])
      .where('course_id', '=', course.id)
      .where('id', '!=', submission.id)
      .orderBy('created_at', 'desc')
      .limit(20)
      .execute(),
  ])
  const sections: { id: string; title: string; lessons: typeof lessonViews }[] = []
  const lessonViews = lessons.map((lesson) => ({
    id: lesson.id,
    title: lesson.title,
    kind: lesson.kind,
    isPreview: lesson.is_preview,
    pendingReview: lesson.pending_review,
    durationSeconds: lesson.duration_seconds,
    video: lesson.video_key ? ('uploaded' as const) : lesson.video_url ? ('link' as const) : null,
    videoUrl: lesson.video_url,
    /** A quiz lesson's questions (0: it cannot be passed); null for other kinds. */
    questionCount: lesson.kind === 'quiz' ? lesson.question_count : null,
  }))
  for (const [index, lesson] of lessons.entries()) {
    let section = sections.at(-1)
    if (!section || section.id !== lesson.section_id) {
      section = { id: lesson.section_id, title: lesson.section_title, lessons: [] }
      sections.push(section)
    }
    section.lessons.push(lessonViews[index] as (typeof lessonViews)[number])
  }
  const diff = revisionDiff(course, draft)
  return {
    submission: {
      id: submission.id,
      kind: submission.kind,
      status: submission.status,
      submittedAt: submission.created_at,
      comments: submission.comments,
    },
    course: {
      id: course.id,
      title: course.title,
      subtitle: course.subtitle,
      description: course.description,
      imageUrl: course.image_url,
      priceMinor: course.price_minor,
      currency: course.currency,
      /** What a buyer pays in each currency (null: not sold in it), decision 0069. */
      prices: coursePrices(course),
      pricesLabel: coursePricesLabel(coursePrices(course)),
      status: course.status,
      level: course.level,
      language: course.language,
      categoryName: course.category_name,
      lessonsCount: lessons.length,
    },
    owner: owner
      ? { email: owner.email, name: fullName(owner.first_name, owner.last_name) }
      : { email: null, name: 'House course' },
    checklist: courseChecklist(course, draft, lessons),
    sections,
    diff,
    pendingLessons: lessonViews.filter((lesson) => lesson.pendingReview),
    history: history.map((row) => ({
      id: row.id,
      kind: row.kind,
      status: row.status,
      comments: row.comments,
      submittedAt: row.created_at,
      decidedAt: row.decided_at,
    })),
  }
}
