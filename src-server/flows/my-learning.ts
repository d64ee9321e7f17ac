// "My courses" with real progress: the courses the learner bought and those started through Premium, each with
// "N of M lessons complete", its percentage, the completion and the lesson to continue with (the player picks it).
// A course shown with every counted lesson complete but not completed (it changed since the learner's last write)
// completes here, as in the player (flows/lesson-player.ts completeWhenShownDone). Each course names its school, so that
// a school's own domain lists that school’s courses (decision 0150).

import type { Role } from '../../src-shared/roles.ts'
import { listOwnedCourses } from '../access/courses.ts'
import { listCourseSummaries } from '../catalog/repository.ts'
import { findCourseForLearning } from '../catalog/repository-lessons.ts'
import { schoolSlugsOfCourses } from '../creators/schools.ts'
import type { DB } from '../kernel/db.ts'
import type { Learner } from '../learning/completion.ts'
import { completedCourses, progressByCourse, startedCourseIds } from '../learning/repository.ts'
import { courseAccessSource } from './lesson-access.ts'
import { allLessonsDone, completeWhenShownDone, progressSummary } from './lesson-player.ts'

export async function myLearning(db: DB, user: Learner & { role: Role }, publicUrl: string) {
  const userId = user.id
  const [owned, started, completions] = await Promise.all([
    listOwnedCourses(db, userId),
    startedCourseIds(db, userId),
    completedCourses(db, userId),
  ])
  const ownedIds = new Set(owned.map((course) => course.id))
  const startedOthers = await listCourseSummaries(
    db,
    started.filter((id) => !ownedIds.has(id)),
  )
  // Only courses the learner holds (Premium, staff): progress on another course's preview lessons is not "mine".
  const held = await Promise.all(
    startedOthers.map((row) =>
      courseAccessSource(db, user, { id: row.id, status: row.status, includedInPremium: row.included_in_premium }),
    ),
  )
  const others = startedOthers.filter((_, index) => held[index] !== null)
  const courses = [
    ...owned.map((course) => ({ ...course, enrolledAt: course.enrolledAt as string | null })),
    ...others.map((row) => ({
      id: row.id,
      title: row.title,
      instructor: row.instructor_name,
      image: row.image_url,
      enrolledAt: null,
    })),
  ]
  const courseIds = courses.map((course) => course.id)
  const [progress, schools] = await Promise.all([
    progressByCourse(db, userId, courseIds),
    schoolSlugsOfCourses(db, courseIds),
  ])
  const completedAt = new Map(completions.map((row) => [row.course_id, row.completed_at]))
  const due = courses.filter((course) => !completedAt.has(course.id) && allLessonsDone(progress.get(course.id)))
  if (due.length > 0) {
    for (const { id } of due) {
      const course = await findCourseForLearning(db, id)
      if (course) await completeWhenShownDone(db, user, course, publicUrl)
    }
    for (const row of await completedCourses(db, userId)) completedAt.set(row.course_id, row.completed_at)
  }
  return courses
    .map((course) => {
      const counts = progress.get(course.id) ?? { total: 0, completed: 0, lastActivity: null }
      const done = completedAt.get(course.id)
      return {
        ...course,
        /** The school the course is of (its owner's school's slug), or null: the marketplace's only. */
        school: schools.get(course.id) ?? null,
        progress: progressSummary(counts.completed, counts.total),
        completedAt: done ? done.toISOString() : null,
        lastActivityAt: counts.lastActivity ? counts.lastActivity.toISOString() : null,
      }
    })
    .sort((a, b) => (b.lastActivityAt ?? b.enrolledAt ?? '').localeCompare(a.lastActivityAt ?? a.enrolledAt ?? ''))
}
