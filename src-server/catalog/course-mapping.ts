// Between the admin course form (decimal text, 'm:ss' lesson durations) and the stored course row.

import type { z } from 'zod'
import { PLACEHOLDER_IMAGE_URL } from '../../src-shared/constants.ts'
import { coursePrices, normalPrices, priceColumns } from '../../src-shared/course-prices.ts'
import { formatLessonDuration, parseLessonDuration } from '../../src-shared/lesson-duration.ts'
import { toMinorUnits } from '../../src-shared/money.ts'
import type { courseInput } from '../../src-shared/schemas/admin.ts'
import type { SectionValues } from './curriculum-editing.ts'
import type { OutlineSection } from './repository-lessons.ts'
import type { AdminCourseRow } from './repository-staff.ts'

type ParsedCourse = z.output<typeof courseInput>

const DEFAULT_INSTRUCTOR = 'Instructor Name'

/** The form's curriculum as the sections and lessons to store. */
export function toSectionValues(input: ParsedCourse): SectionValues[] {
  return input.curriculum.map((section) => ({
    id: section.id,
    title: section.title,
    lessons: section.lessons.map((lesson) => ({
      id: lesson.id,
      title: lesson.title,
      durationSeconds: parseLessonDuration(lesson.duration),
      isPreview: lesson.isPreview,
    })),
  }))
}

/**
 * Stored columns for a validated form. Lessons and duration follow the curriculum whenever it lists lessons. The
 * prices in USD and GBP give the list price too (`listCurrency`: the course's list currency now), decision 0069.
 */
export function toCourseValues(input: ParsedCourse, listCurrency = 'USD') {
  const lessons = toSectionValues(input).flatMap((section) => section.lessons)
  const fromCurriculum = lessons.length > 0
  const seconds = lessons.reduce((sum, lesson) => sum + lesson.durationSeconds, 0)
  return {
    title: input.title,
    description: input.description,
    category_id: input.categoryId,
    instructor_name: input.instructorName || DEFAULT_INSTRUCTOR,
    image_url: input.imageUrl || PLACEHOLDER_IMAGE_URL,
    ...priceColumns(
      normalPrices({ USD: toMinorUnits(input.price), GBP: input.priceGbp ? toMinorUnits(input.priceGbp) : null }),
      listCurrency,
    ),
    original_price_minor: input.originalPrice ? toMinorUnits(input.originalPrice) : null,
    level: input.level,
    status: input.status,
    featured: input.featured,
    language: input.language,
    certificate: input.certificate,
    included_in_premium: input.includedInPremium,
    lessons_count: fromCurriculum ? lessons.length : input.lessons,
    duration_minutes: fromCurriculum ? Math.round(seconds / 60) : input.durationMinutes,
    what_you_will_learn: JSON.stringify(input.whatYouWillLearn),
    requirements: JSON.stringify(input.requirements),
  }
}

const decimal = (minor: number) => (minor / 100).toFixed(2)

/** What the admin table and the edit form need, as plain JSON. */
export function toAdminCourse(row: AdminCourseRow, curriculum: OutlineSection[]) {
  const prices = coursePrices(row)
  return {
    id: row.id,
    title: row.title,
    description: row.description,
    categoryId: row.category_id,
    category: row.category_name,
    instructorName: row.instructor_name,
    imageUrl: row.image_url,
    priceMinor: row.price_minor,
    prices,
    /** The price in USD ('0.00': not sold in USD) and in GBP ('': not sold in GBP), as the form edits them. */
    price: decimal(prices.USD ?? 0),
    priceGbp: prices.GBP === null ? '' : decimal(prices.GBP),
    originalPrice: row.original_price_minor === null ? '' : decimal(row.original_price_minor),
    currency: row.currency,
    level: row.level,
    language: row.language,
    certificate: row.certificate,
    includedInPremium: row.included_in_premium,
    status: row.status,
    featured: row.featured,
    lessons: row.lessons_count,
    durationMinutes: row.duration_minutes,
    whatYouWillLearn: row.what_you_will_learn,
    requirements: row.requirements,
    curriculum: curriculum.map((section) => ({
      id: section.id,
      title: section.title,
      lessons: section.lessons.map((lesson) => ({
        id: lesson.id,
        title: lesson.title,
        duration: formatLessonDuration(lesson.durationSeconds),
        isPreview: lesson.isPreview,
        durationFromVideo: lesson.durationFromVideo ?? false,
      })),
    })),
    updatedAt: row.updated_at.toISOString(),
  }
}
export type AdminCourse = ReturnType<typeof toAdminCourse>
