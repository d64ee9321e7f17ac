// An instructor's public page: the catalogue's profile and published courses, learners summed over those
// courses, and the average of their visible reviews (learning's rows) — each review counts once.
import { findInstructorBySlug, publishedCoursesOf } from '../catalog/instructors.ts'
import type { DB } from '../kernel/db.ts'
import { ratingAcrossCourses } from '../learning/repository-reviews.ts'

export async function instructorPage(db: DB, slug: string) {
  const instructor = await findInstructorBySlug(db, slug)
  if (!instructor) return null
  const courses = await publishedCoursesOf(db, instructor.id)
  const rating = await ratingAcrossCourses(
    db,
    courses.map((course) => course.id),
  )
  return {
    instructor,
    courses,
    totalLearners: courses.reduce((sum, course) => sum + course.students_count, 0),
    rating,
  }
}
