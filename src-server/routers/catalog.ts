import { z } from 'zod'
import { FALLBACK_FEATURED_COURSES } from '../../src-shared/constants.ts'
import { courseIdSchema, featuredCoursesInput } from '../../src-shared/schemas/catalog.ts'
import { type CourseCardRow, findPublishedCourse, listFeaturedCourses } from '../catalog/repository.ts'
import { publicProcedure, router } from '../trpc/init.ts'

export function toCourseCard(row: CourseCardRow) {
  return {
    id: row.id,
    title: row.title,
    instructor: row.instructor_name,
    description: row.description,
    category: row.category_name,
    categorySlug: row.category_slug,
    image: row.image_url,
    priceMinor: row.price_minor,
    originalPriceMinor: row.original_price_minor,
    currency: row.currency,
    rating: row.rating,
    reviewCount: row.review_count,
    featured: row.featured,
    lessons: row.lessons_count,
    durationMinutes: row.duration_minutes,
    level: row.level,
  }
}
export type CourseCard = ReturnType<typeof toCourseCard>

export const catalogRouter = router({
  featuredCourses: publicProcedure.input(featuredCoursesInput).query(async ({ ctx, input }) => {
    const rows = await listFeaturedCourses(ctx.db, input.limit, FALLBACK_FEATURED_COURSES)
    return rows.map(toCourseCard)
  }),

  /** A published course, or null (the page shows the course not-found variant). */
  course: publicProcedure.input(z.object({ id: courseIdSchema })).query(async ({ ctx, input }) => {
    const row = await findPublishedCourse(ctx.db, input.id)
    if (!row) return null
    return {
      ...toCourseCard(row),
      studentsCount: row.students_count,
      language: row.language,
      certificate: row.certificate,
      whatYouWillLearn: row.what_you_will_learn,
      requirements: row.requirements,
      curriculum: row.curriculum,
      instructorId: row.instructor_id,
      lastUpdated: row.updated_at.toISOString(),
    }
  }),
})
