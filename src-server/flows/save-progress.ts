// Progress writes. Each is idempotent: watched ranges are a union (a repeated write adds nothing), a lesson
// completes only when it was not complete, and a late write never moves the resume position backwards.

import type { z } from 'zod'
import type { Role } from '../../src-shared/roles.ts'
import type { lessonCompletionInput, videoProgressInput } from '../../src-shared/schemas/learning.ts'
import { courseOfLessonRow, findLessonRow } from '../catalog/repository-lessons.ts'
import * as clock from '../kernel/clock.ts'
import type { DB } from '../kernel/db.ts'
import { DomainError } from '../kernel/errors.ts'
import { completeCourseIfDone, type Learner } from '../learning/completion.ts'
import { mergeRanges, watchedEnough, watchedSeconds } from '../learning/ranges.ts'
import { ensureProgressRow, lockProgress } from '../learning/repository.ts'
import { recordPremiumWatch } from '../learning/watch-time.ts'
import { courseAccessSource, lessonAccess } from './lesson-access.ts'
import { brandOfCourse } from './school-domain.ts'
import { emitCourseEvent } from './webhook-events.ts'

type VideoProgress = z.output<typeof videoProgressInput>
type LessonCompletion = z.output<typeof lessonCompletionInput>
type SessionLearner = Learner & { role: Role }

/**
 * Playback may run at up to 2× speed: the watching believed since a lesson's first save never exceeds twice the time
 * the server's clock has run since (from one save interval before it), plus 5 s. The player's `sentAt` plays no part
 * (a save dated in the past made room for any amount of watching, and Premium pool minutes): it orders positions only.
 */
const MAX_PLAYBACK_RATE = 2
const GRACE_SECONDS = 5
/** A first save is believed for one save interval (15 s) of playback: 15 × 2 + 5 = 35 s. */
const FIRST_SAVE_WINDOW_MS = 15_000

async function openLesson(db: DB, user: SessionLearner, courseId: string, lessonId: string) {
  const lesson = await findLessonRow(db, courseId, lessonId)
  if (!lesson) throw new DomainError('not_found', 'Lesson not found')
  const course = courseOfLessonRow(lesson)
  // Drip, previews and the learner's hold on the course all decide here, in one lookup (flows/lesson-access.ts). A
  // preview earns nothing from the Premium pool; other watching is Premium's when the course is held through it.
  const access = await lessonAccess(db, user, course, { id: lesson.id, isPreview: lesson.is_preview })
  if (!access.open) throw new DomainError('forbidden', 'You do not have access to this lesson')
  return { course, lesson, premium: access.source === 'premium' }
}

export interface ProgressResult {
  positionSeconds: number
  watchedSeconds: number
  completed: boolean
  courseCompleted: boolean
  certificateId: string | null
}

export async function saveVideoProgress(db: DB, user: SessionLearner, input: VideoProgress, publicUrl: string) {
  const { course, lesson, premium } = await openLesson(db, user, input.courseId, input.lessonId)
  if (lesson.kind !== 'video') throw new DomainError('invalid', 'This lesson is not a video')
  const duration = lesson.duration_seconds
  const sentAt = new Date(Math.min(input.sentAt, clock.nowMs()))
  return db.transaction().execute(async (trx): Promise<ProgressResult> => {
    let row = await lockProgress(trx, user.id, lesson.id)
    if (!row) {
      await ensureProgressRow(trx, user.id, course.id, lesson.id)
      row = await lockProgress(trx, user.id, lesson.id)
    }
    if (!row) throw new Error('progress row vanished')
    const merged = mergeRanges([...row.watched_ranges, ...input.ranges], duration)
    const watched = watchedSeconds(merged)
    // The allowance, on the server's clock (read once the row is locked): 2× the time from allowance_from, + 5 s.
    // Believed watching moves allowance_from on by the time it takes at 2×, so time not yet used stays (progress
    // made offline and sent in a burst is believed as far as the time since the last save covers it) and the 5 s
    // of grace does not add up over saves sent one after another.
    const nowMs = clock.nowMs()
    const from = row.allowance_from?.getTime() ?? nowMs - FIRST_SAVE_WINDOW_MS
    const allowance = ((nowMs - from) / 1000) * MAX_PLAYBACK_RATE + GRACE_SECONDS
    const added = watched - row.watched_seconds
    // A claim of more watching than time allows keeps the ranges as they were (the position still saves).
    const believable = added <= 0 || added <= allowance
    const ranges = believable ? merged : row.watched_ranges
    const total = believable ? watched : row.watched_seconds
    const allowanceFrom = new Date(from + (believable ? Math.max(added, 0) / MAX_PLAYBACK_RATE : 0) * 1000)
    const newer = row.updated_at.getTime() === 0 || sentAt.getTime() >= row.updated_at.getTime()
    const completesNow = row.completed_at === null && watchedEnough(total, duration)
    await trx
      .updateTable('lesson_progress')
      .set({
        watched_ranges: JSON.stringify(ranges),
        watched_seconds: total,
        allowance_from: allowanceFrom,
        ...(newer ? { position_seconds: Math.min(input.positionSeconds, duration), updated_at: sentAt } : {}),
        ...(completesNow ? { completed_at: clock.now() } : {}),
      })
      .where('user_id', '=', user.id)
      .where('lesson_id', '=', lesson.id)
      .execute()
    // New watching by a Premium member counts towards the course's share of the month's Premium pool.
    if (premium && total > row.watched_seconds) {
      await recordPremiumWatch(trx, {
        userId: user.id,
        courseId: course.id,
        seconds: total - row.watched_seconds,
        at: clock.now(),
      })
    }
    const position = newer ? Math.min(input.positionSeconds, duration) : row.position_seconds
    const result = {
      positionSeconds: position,
      watchedSeconds: total,
      completed: completesNow || row.completed_at !== null,
    }
    // A complete lesson (now or before) may be the holder's last: see afterLessonCompleted.
    if (!result.completed) return { ...result, courseCompleted: false, certificateId: null }
    return { ...result, ...(await afterLessonCompleted(trx, user, course, publicUrl)) }
  })
}

/** Mark as complete (completed: true) or undo it (false). */
export async function setLessonCompleted(db: DB, user: SessionLearner, input: LessonCompletion, publicUrl: string) {
  const { course, lesson } = await openLesson(db, user, input.courseId, input.lessonId)
  // A quiz lesson completes by passing the quiz (flows/quiz-taking.ts), never by a click.
  if (lesson.kind === 'quiz') throw new DomainError('invalid', 'Pass the quiz to complete this lesson')
  return db.transaction().execute(async (trx) => {
    await ensureProgressRow(trx, user.id, course.id, lesson.id)
    // Only a change is written: a lesson already complete keeps the moment it first completed.
    await trx
      .updateTable('lesson_progress')
      .set({ completed_at: input.completed ? clock.now() : null })
      .where('user_id', '=', user.id)
      .where('lesson_id', '=', lesson.id)
      .where('completed_at', input.completed ? 'is' : 'is not', null)
      .execute()
    if (!input.completed) return { completed: false, courseCompleted: false, certificateId: null }
    return { completed: true, ...(await afterLessonCompleted(trx, user, course, publicUrl)) }
  })
}

export async function afterLessonCompleted(
  trx: DB,
  user: SessionLearner,
  course: Awaited<ReturnType<typeof openLesson>>['course'],
  publicUrl: string,
) {
  // Called for a lesson that is complete, whether it completed now or before: a learner whose lessons are all
  // complete without the course being so (the last one completed while not holding the course, e.g. a preview
  // lesson before buying or during a lapsed subscription) completes it on their next save or Mark as complete of a
  // complete lesson. completeCourseIfDone completes a course once (course_completions' key), so a later call does
  // nothing. Only a learner who holds the course completes it (a visitor's preview lessons do not).
  const source = await courseAccessSource(trx, user, course)
  if (!source) return { courseCompleted: false, certificateId: null }
  const brand = await brandOfCourse(trx, course.id)
  const outcome = await completeCourseIfDone(trx, user, { ...course, brandName: brand?.displayName }, source, publicUrl)
  if (outcome.completed) {
    await emitCourseEvent(trx, course.id, 'course.completed', {
      learnerId: user.id,
      certificateId: outcome.certificateId,
    })
  }
  return { courseCompleted: outcome.completed, certificateId: outcome.certificateId }
}
