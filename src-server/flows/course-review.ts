// The creator's side of review (the publish page): the checklist judged live, submitting a course (a first review,
// or a revision of a published one) and withdrawing it. The plan and its slots are the course owner's, whoever of
// the course's team submits.

import type { CourseStatus } from '../../db/types.ts'
import type { ChecklistItem } from '../../src-shared/course-review.ts'
import { CHECKLIST_LABELS } from '../../src-shared/course-review.ts'
import type { CreatorLimitOverrides } from '../../src-shared/creator-plans.ts'
import {
  closeSubmission,
  courseChecklist,
  draftFields,
  findCourseForReview,
  hasPendingChanges,
  insertSubmission,
  latestSubmission,
  moveCourseStatus,
  pendingSubmission,
  reviewLessons,
} from '../catalog/course-review.ts'
import { assertCourseRole, type CourseRole } from '../creators/course-team.ts'
import { lessonsWithVideoProcessing } from '../creators/upload-rows.ts'
import * as clock from '../kernel/clock.ts'
import type { DB } from '../kernel/db.ts'
import { DomainError } from '../kernel/errors.ts'
import { type CreatorStanding, creatorStanding, lockPublishingSlots, NO_PLAN_MESSAGE } from './creator-standing.ts'

const FIRST_FROM: CourseStatus[] = ['draft', 'changes_requested', 'unpublished']

export type SubmitKind = 'first' | 'revision'

/** What a submission of the course now would be, or why there is none. */
function submitKindOf(status: CourseStatus, pending: boolean): { kind: SubmitKind | null; reason: string } {
  if (status === 'draft' || status === 'changes_requested') return { kind: 'first', reason: '' }
  if (status === 'in_review') return { kind: null, reason: 'This course is already waiting for review' }
  if (status === 'published')
    return pending
      ? { kind: 'revision', reason: '' }
      : { kind: null, reason: 'Nothing to review: edit the published course first' }
  if (status === 'unpublished')
    return pending
      ? { kind: 'first', reason: '' }
      : { kind: null, reason: 'Nothing changed since it was published: republish it instead' }
  return { kind: null, reason: 'An archived course cannot be submitted' }
}

/** The plan item: a first review takes a publishing slot; a revision of a course on sale needs a live plan only. */
export function planItem(standing: CreatorStanding, kind: SubmitKind | null): ChecklistItem {
  const item = (done: boolean, detail: string): ChecklistItem => ({
    id: 'plan',
    label: CHECKLIST_LABELS.plan,
    done,
    detail,
  })
  if (!standing.limits) return item(false, NO_PLAN_MESSAGE)
  const max = standing.limits.publishedCourses
  const used = `${standing.publishedCourses} of ${max ?? 'unlimited'} publishing slots used`
  // Only a first review takes a slot: a course on sale or in review already holds one, a revision needs none.
  if (kind !== 'first' || max === null || standing.publishedCourses < max) return item(true, used)
  return item(
    false,
    `Your ${standing.planName ?? ''} plan publishes up to ${max} courses: upgrade your plan to publish more`.replace(
      /\s+/g,
      ' ',
    ),
  )
}

/** The smallest plan with a slot for one more course (the page links it to /pricing). */
export function planThatFits(publishedCourses: number): { id: 'basic' | 'pro' | 'enterprise'; name: string } {
  if (publishedCourses < 5) return { id: 'basic', name: 'Basic' }
  if (publishedCourses < 25) return { id: 'pro', name: 'Pro' }
  return { id: 'enterprise', name: 'Enterprise' }
}

async function loadCourse(db: DB, courseId: string) {
  const course = await findCourseForReview(db, courseId)
  if (!course?.owner_id) throw new DomainError('not_found', 'Course not found')
  return { ...course, owner_id: course.owner_id }
}

async function judge(db: DB, courseId: string, overrides: CreatorLimitOverrides | undefined, now: Date) {
  const course = await loadCourse(db, courseId)
  const [draft, lessons, pending, standing] = await Promise.all([
    draftFields(db, courseId),
    reviewLessons(db, courseId),
    hasPendingChanges(db, courseId),
    creatorStanding(db, course.owner_id, overrides, now),
  ])
  const next = submitKindOf(course.status, pending)
  const processing = await lessonsWithVideoProcessing(
    db,
    lessons.map((lesson) => lesson.id),
  )
  const checklist = [...courseChecklist(course, draft, lessons, processing), planItem(standing, next.kind)]
  return { course, draft, lessons, pending, standing, next, checklist, videosProcessing: processing.size > 0 }
}

/** The publish page: the course's state, the live checklist, the plan, and the latest submission's outcome. */
export async function publishPage(
  db: DB,
  userId: string,
  courseId: string,
  overrides?: CreatorLimitOverrides,
  now = clock.now(),
) {
  const role: CourseRole = await assertCourseRole(db, userId, courseId)
  const { course, pending, standing, next, checklist, videosProcessing } = await judge(db, courseId, overrides, now)
  const latest = await latestSubmission(db, courseId)
  return {
    course: { id: course.id, title: course.title, status: course.status, publishedAt: course.published_at },
    role,
    checklist,
    pendingChanges: pending,
    submitKind: next.kind,
    canSubmit: next.kind !== null && checklist.every((item) => item.done),
    cannotSubmitReason: next.reason,
    /** A lesson video is being transcoded: the page asks again until it is done (the checklist then ticks). */
    videosProcessing,
    plan: {
      id: standing.planId,
      name: standing.planName,
      publishedCourses: standing.publishedCourses,
      publishedLimit: standing.limits ? standing.limits.publishedCourses : 0,
      teamLimit: standing.limits ? standing.limits.teamMembers : 0,
      live: standing.limits !== null,
    },
    /** Without a live plan, or with a full one for a first review: the plan that would give this course a slot. */
    planThatFits:
      !standing.limits ||
      (next.kind === 'first' &&
        standing.limits.publishedCourses !== null &&
        standing.publishedCourses >= standing.limits.publishedCourses)
        ? planThatFits(standing.publishedCourses)
        : null,
    latestSubmission: latest
      ? {
          id: latest.id,
          kind: latest.kind,
          status: latest.status,
          comments: latest.comments,
          createdAt: latest.created_at,
          decidedAt: latest.decided_at,
        }
      : null,
  }
}

/** Sends the course to staff: a first review (draft, changes requested, or unpublished with edits) or a revision. */
export async function submitForReview(
  db: DB,
  userId: string,
  courseId: string,
  overrides?: CreatorLimitOverrides,
  now = clock.now(),
) {
  await assertCourseRole(db, userId, courseId)
  const first = await judge(db, courseId, overrides, now)
  return db.transaction().execute(async (trx) => {
    // Judged again under the owner's slot lock, in the transaction that writes: two submissions at once would
    // otherwise both see the last free publishing slot.
    await lockPublishingSlots(trx, first.course.owner_id)
    const { course, draft, lessons, next, checklist } = await judge(trx, courseId, overrides, now)
    if (!next.kind) throw new DomainError('conflict', next.reason)
    const missing = checklist.find((item) => !item.done)
    if (missing) throw new DomainError('precondition', missing.detail)
    const kind = next.kind
    const changes =
      kind === 'first'
        ? { fromStatus: course.status }
        : {
            fields: draft,
            pendingLessons: lessons
              .filter((lesson) => lesson.pending_review)
              .map((lesson) => ({ id: lesson.id, title: lesson.title })),
          }
    const submission = await insertSubmission(trx, { courseId, kind, submittedBy: userId, changes })
    if (kind === 'first' && !(await moveCourseStatus(trx, courseId, FIRST_FROM, 'in_review', now))) {
      throw new DomainError('conflict', 'This course changed meanwhile: reload the page')
    }
    return { submissionId: submission.id, kind }
  })
}

/** Takes a pending submission back: a first review returns the course to where it was. */
export async function withdrawSubmission(db: DB, userId: string, courseId: string, now = clock.now()) {
  await assertCourseRole(db, userId, courseId)
  const pending = await pendingSubmission(db, courseId)
  if (!pending) throw new DomainError('conflict', 'There is no submission waiting for review')
  await db.transaction().execute(async (trx) => {
    if (!(await closePendingSubmission(trx, pending.id, courseId, userId, now))) {
      throw new DomainError('conflict', 'Staff decided on this submission meanwhile: reload the page')
    }
  })
  return { withdrawn: true }
}

/** Closes a pending submission as withdrawn (false if it was decided meanwhile); a first review's course goes back. */
export async function closePendingSubmission(trx: DB, submissionId: string, courseId: string, by: string, now: Date) {
  const closed = await closeSubmission(trx, submissionId, 'withdrawn', by, [], now)
  if (!closed) return false
  if (closed.kind === 'first') {
    const from = (closed.changes as { fromStatus?: CourseStatus }).fromStatus
    const back: CourseStatus = from && FIRST_FROM.includes(from) ? from : 'draft'
    await moveCourseStatus(trx, courseId, ['in_review'], back, now)
  }
  return true
}
