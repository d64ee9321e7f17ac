// Staff decide on a submitted course (admin.courseReviews): approve it — a first review puts it on sale, a revision
// applies its edits — or ask for changes with a comment per item. Each decision, its audit record and the creator's
// e-mail commit together. Publishing updates the courses row, so the catalogue's triggers move its facet counts and
// catalog_version at once: search, category pages and the sitemap show the course on the next request.

import { createHash } from 'node:crypto'
import type { ReviewComment } from '../../db/types.ts'
import { reviewItemLabel } from '../../src-shared/course-review.ts'
import type { CreatorLimitOverrides } from '../../src-shared/creator-plans.ts'
import * as audit from '../audit/repository.ts'
import {
  applyPendingChanges,
  closeSubmission,
  courseChecklist,
  draftFields,
  findCourseForReview,
  findSubmission,
  moveCourseStatus,
  reviewedContent,
  reviewLessons,
} from '../catalog/course-review.ts'
import { reviewDetail } from '../catalog/course-review-queue.ts'
import * as clock from '../kernel/clock.ts'
import type { DB } from '../kernel/db.ts'
import { DomainError } from '../kernel/errors.ts'
import { quizEdits } from '../learning/quiz-repository.ts'
import { enqueueMail } from '../mail/outbox.ts'
import { creatorStanding, lockPublishingSlots } from './creator-standing.ts'

export const REVIEW_APPROVED_MAIL = 'course-review-approved'
export const REVIEW_CHANGES_MAIL = 'course-review-changes'
export const REVIEW_CHECKLIST_UNMET = 'This course does not meet the publishing checklist'
export const REVIEW_CHANGED_SINCE_OPENED =
  'The creator changed this course after you opened it: the page now shows what it holds, review it and decide again'

/**
 * A fingerprint of what the reviewer sees (the course, its pending revision, curriculum and quizzes). The approval
 * names the one its reviewer saw: a course edited since (the creator may edit while in review) is not published
 * unseen.
 */
export async function reviewVersion(db: DB, courseId: string): Promise<string> {
  const [content, quizzes] = await Promise.all([reviewedContent(db, courseId), quizEdits(db, courseId)])
  return createHash('sha256').update(JSON.stringify({ content, quizzes })).digest('base64url').slice(0, 22)
}

/** The review page: the submission, its course as buyers will read it, and the version an approval names. */
export async function submissionUnderReview(db: DB, submissionId: string) {
  const detail = await reviewDetail(db, submissionId)
  const { renderMarkdown } = await import('../learning/markdown.ts')
  return {
    ...detail,
    course: { ...detail.course, descriptionHtml: renderMarkdown(detail.course.description) },
    version: await reviewVersion(db, detail.course.id),
  }
}

async function ownerOf(db: DB, ownerId: string) {
  return db.selectFrom('users').select(['email', 'first_name']).where('id', '=', ownerId).executeTakeFirstOrThrow()
}

async function pendingOrRefuse(db: DB, submissionId: string) {
  const submission = await findSubmission(db, submissionId)
  if (!submission) throw new DomainError('not_found', 'Submission not found')
  if (submission.status !== 'pending') {
    throw new DomainError('conflict', 'This submission was already decided or withdrawn')
  }
  const course = await findCourseForReview(db, submission.course_id)
  if (!course?.owner_id) throw new DomainError('not_found', 'Course not found')
  return { submission, course: { ...course, owner_id: course.owner_id } }
}

/** The staff-facing refusal when the owner's plan no longer has a slot for this course (a downgrade, a lapse). */
async function assertOwnerSlot(db: DB, ownerId: string, overrides: CreatorLimitOverrides | undefined, now: Date) {
  const standing = await creatorStanding(db, ownerId, overrides, now)
  if (!standing.limits) {
    throw new DomainError(
      'precondition',
      'The creator has no live plan any more: they must choose a plan before this course can be published',
    )
  }
  const max = standing.limits.publishedCourses
  // The course in review already counts among the owner's slots: the others must leave one for it.
  const others = standing.publishedCourses - 1
  if (max !== null && others >= max) {
    throw new DomainError(
      'precondition',
      `The creator’s ${standing.planName ?? ''} plan has no free publishing slot (${others} of ${max} used by other courses): they must upgrade or unpublish a course before this one can be approved`.replace(
        /\s+/g,
        ' ',
      ),
    )
  }
}

export async function approveSubmission(
  db: DB,
  actor: audit.Actor,
  input: { submissionId: string; version: string },
  options: { publicUrl: string; overrides?: CreatorLimitOverrides },
  now = clock.now(),
) {
  const { submissionId } = input
  const { submission, course } = await pendingOrRefuse(db, submissionId)
  const owner = await ownerOf(db, course.owner_id)
  return db.transaction().execute(async (trx) => {
    if ((await reviewVersion(trx, course.id)) !== input.version) {
      throw new DomainError('conflict', REVIEW_CHANGED_SINCE_OPENED)
    }
    // What the creator could not submit is not published either (a rule added, or a quiz emptied, since submission).
    const [draft, lessons] = await Promise.all([draftFields(trx, course.id), reviewLessons(trx, course.id)])
    const unmet = courseChecklist(course, draft, lessons).filter((item) => !item.done)
    if (unmet.length > 0) {
      throw new DomainError(
        'precondition',
        `${REVIEW_CHECKLIST_UNMET}: ${unmet.map((item) => item.detail).join('; ')}. Request changes instead.`,
      )
    }
    // Under the owner's slot lock, as republishing and submitting take it, so no two fill the last slot.
    if (submission.kind === 'first') {
      await lockPublishingSlots(trx, course.owner_id)
      await assertOwnerSlot(trx, course.owner_id, options.overrides, now)
    }
    if (!(await closeSubmission(trx, submissionId, 'approved', actor.id, [], now))) {
      throw new DomainError('conflict', 'This submission was already decided or withdrawn')
    }
    if (submission.kind === 'first' && !(await moveCourseStatus(trx, course.id, ['in_review'], 'published', now))) {
      throw new DomainError('conflict', 'The course is no longer in review')
    }
    const applied = await applyPendingChanges(trx, course.id, now)
    await audit.record(trx, actor, 'course.review.approve', {
      type: 'course',
      id: course.id,
      before: { status: course.status, title: course.title, priceMinor: course.price_minor },
      after: { status: submission.kind === 'first' ? 'published' : course.status, kind: submission.kind, ...applied },
    })
    const title = applied.fields.title ?? course.title
    await enqueueMail(trx, {
      kind: REVIEW_APPROVED_MAIL,
      to: owner.email,
      subject: submission.kind === 'first' ? `“${title}” is published` : `Your changes to “${title}” are live`,
      text: [
        `Hello ${owner.first_name || 'there'},`,
        '',
        submission.kind === 'first'
          ? `Our team reviewed “${title}” and published it: learners can find it in the catalogue now.`
          : `Our team reviewed your changes to “${title}”: they are live in the catalogue now.`,
        '',
        `${options.publicUrl.replace(/\/$/, '')}/courses/${course.id}`,
      ].join('\n'),
    })
    return {
      courseId: course.id,
      kind: submission.kind,
      status: submission.kind === 'first' ? 'published' : course.status,
    }
  })
}

export async function requestChanges(
  db: DB,
  actor: audit.Actor,
  input: { submissionId: string; comments: ReviewComment[] },
  options: { publicUrl: string },
  now = clock.now(),
) {
  const { submission, course } = await pendingOrRefuse(db, input.submissionId)
  const owner = await ownerOf(db, course.owner_id)
  const comments = input.comments.map((entry) => ({ item: entry.item, comment: entry.comment }))
  return db.transaction().execute(async (trx) => {
    if (!(await closeSubmission(trx, submission.id, 'changes_requested', actor.id, comments, now))) {
      throw new DomainError('conflict', 'This submission was already decided or withdrawn')
    }
    // A revision's course stays on sale as it was; a first review goes back to its creator.
    if (submission.kind === 'first') await moveCourseStatus(trx, course.id, ['in_review'], 'changes_requested', now)
    await audit.record(trx, actor, 'course.review.request_changes', {
      type: 'course',
      id: course.id,
      before: { status: course.status },
      after: {
        status: submission.kind === 'first' ? 'changes_requested' : course.status,
        kind: submission.kind,
        comments,
      },
    })
    await enqueueMail(trx, {
      kind: REVIEW_CHANGES_MAIL,
      to: owner.email,
      subject: `Changes requested for “${course.title}”`,
      text: [
        `Hello ${owner.first_name || 'there'},`,
        '',
        `Our team reviewed ${submission.kind === 'first' ? '' : 'your changes to '}“${course.title}” and asks for these changes before it goes live:`,
        '',
        ...comments.map((entry) => `- ${reviewItemLabel(entry.item)}: ${entry.comment}`),
        '',
        'Make the changes in the studio and submit the course again:',
        `${options.publicUrl.replace(/\/$/, '')}/studio/courses/${course.id}/publish`,
      ].join('\n'),
    })
    return { courseId: course.id, kind: submission.kind }
  })
}
