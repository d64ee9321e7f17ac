// A creator's courses as the studio edits them: the list (owned and co-instructed, searchable, paged), one course's
// fields with its pending revision, a new draft course, and field changes. On a course that is on sale (published or
// unpublished) the reviewed fields (title, price, description) wait in course_drafts for staff approval while the
// course stays on sale unchanged; every other field applies at once. Who may edit is the caller's check
// (creators/course-team.ts through flows/studio-courses.ts).

import { sql } from 'kysely'
import type { CourseStatus } from '../../db/types.ts'
import { PLACEHOLDER_IMAGE_URL } from '../../src-shared/constants.ts'
import { priceColumns } from '../../src-shared/course-prices.ts'
import { STUDIO_PAGE_SIZE, type StudioState } from '../../src-shared/studio.ts'
import * as clock from '../kernel/clock.ts'
import type { DB } from '../kernel/db.ts'
import { DomainError } from '../kernel/errors.ts'
import { likePattern } from '../kernel/like-pattern.ts'
import { pageOf } from '../kernel/paging.ts'

/** The fields staff review again on a course that is on sale; the keys of course_drafts.fields. */
export interface ReviewedFields {
  title: string
  /** The price in each currency (null: not sold in it; both null: free), decision 0069. */
  priceUsdMinor: number | null
  priceGbpMinor: number | null
  description: string
}
export const REVIEWED_KEYS = ['title', 'priceUsdMinor', 'priceGbpMinor', 'description'] as const

/** Fields a creator changes at once, whatever the course's state. */
export interface ImmediateFields {
  subtitle: string
  categoryId: string
  level: string
  language: string
  whatYouWillLearn: string[]
  requirements: string[]
  imageUrl: string
  certificate: boolean
}

export const isOnSale = (status: CourseStatus) => status === 'published' || status === 'unpublished'

/** One page of the courses the user owns or co-instructs, newest change first (course_instructors_user_idx). */
export async function listStudioCourses(
  db: DB,
  userId: string,
  filter: { search: string; state?: StudioState; page: number },
) {
  let query = db
    .selectFrom('course_instructors as ci')
    .innerJoin('courses as c', 'c.id', 'ci.course_id')
    .where('ci.user_id', '=', userId)
    .where('c.status', '!=', 'archived')
  if (filter.search) query = query.where('c.title', 'ilike', likePattern(filter.search))
  if (filter.state) query = query.where('c.status', '=', filter.state)
  const { rows, total } = await pageOf(
    query
      .select([
        'c.id',
        'c.title',
        'c.subtitle',
        'c.status',
        'c.image_url as imageUrl',
        'c.price_minor as priceMinor',
        'c.currency',
        'c.lessons_count as lessons',
        'c.updated_at as updatedAt',
        'ci.role',
      ])
      .select(sql<boolean>`exists (select 1 from course_drafts d where d.course_id = c.id)`.as('hasPendingChanges'))
      .orderBy('c.updated_at', 'desc')
      .orderBy('c.id'),
    filter.page,
    STUDIO_PAGE_SIZE,
  )
  return { items: rows.map((row) => ({ ...row, updatedAt: row.updatedAt.toISOString() })), total }
}

/** The course row (any status) for the studio, locked for the rest of the transaction when `forUpdate`. */
export async function findStudioCourse(db: DB, courseId: string, forUpdate = false) {
  let query = db
    .selectFrom('courses')
    .select([
      'id',
      'title',
      'subtitle',
      'description',
      'category_id',
      'level',
      'language',
      'what_you_will_learn',
      'requirements',
      'image_url',
      'price_minor',
      'currency',
      'price_usd_minor',
      'price_gbp_minor',
      'certificate',
      'status',
      'lessons_count',
      'duration_minutes',
      'updated_at',
    ])
    .where('id', '=', courseId)
  if (forUpdate) query = query.forUpdate()
  const row = await query.executeTakeFirst()
  if (!row) throw new DomainError('not_found', 'Course not found')
  return row
}
export type StudioCourseRow = Awaited<ReturnType<typeof findStudioCourse>>

/** The pending revision of the reviewed fields (only the keys that differ from the course on sale). */
export async function findCourseDraft(db: DB, courseId: string): Promise<Partial<ReviewedFields>> {
  const row = await db.selectFrom('course_drafts').select('fields').where('course_id', '=', courseId).executeTakeFirst()
  const fields = (row?.fields ?? {}) as Record<string, unknown>
  const draft: Partial<ReviewedFields> = {}
  if (typeof fields.title === 'string') draft.title = fields.title
  for (const key of ['priceUsdMinor', 'priceGbpMinor'] as const) {
    const value = fields[key]
    if (key in fields && (value === null || (typeof value === 'number' && Number.isInteger(value) && value > 0))) {
      draft[key] = value
    }
  }
  if (typeof fields.description === 'string') draft.description = fields.description
  return draft
}

/** Stores the pending revision (removing the row when nothing differs any more), in the caller's transaction. */
export async function saveCourseDraft(trx: DB, courseId: string, draft: Partial<ReviewedFields>): Promise<void> {
  if (Object.keys(draft).length === 0) {
    await trx.deleteFrom('course_drafts').where('course_id', '=', courseId).execute()
    return
  }
  const fields = JSON.stringify(draft)
  await trx
    .insertInto('course_drafts')
    .values({ course_id: courseId, fields })
    .onConflict((oc) => oc.column('course_id').doUpdateSet({ fields, updated_at: clock.now() }))
    .execute()
}

/** A creator's new course: a free draft with no lessons, named for the creator's instructor profile. */
export async function insertStudioCourse(
  trx: DB,
  values: { id: string; title: string; categoryId: string; ownerId: string; instructorId: string },
): Promise<void> {
  const instructor = await trx
    .selectFrom('instructors')
    .select('name')
    .where('id', '=', values.instructorId)
    .executeTakeFirstOrThrow()
  await trx
    .insertInto('courses')
    .values({
      id: values.id,
      title: values.title,
      category_id: values.categoryId,
      owner_id: values.ownerId,
      instructor_id: values.instructorId,
      instructor_name: instructor.name,
      price_minor: 0,
      status: 'draft',
      // A creator's course starts outside Premium: its owner (the studio's Details tab) or staff include it.
      included_in_premium: false,
      lessons_count: 0,
      duration_minutes: 0,
      what_you_will_learn: JSON.stringify([]),
      requirements: JSON.stringify([]),
    })
    .execute()
}

/** Writes the immediate fields and, when given, the reviewed ones (a course not on sale changes them at once). */
export async function writeStudioCourse(
  trx: DB,
  courseId: string,
  fields: ImmediateFields,
  reviewed: (ReviewedFields & { listCurrency: string }) | null,
): Promise<void> {
  await trx
    .updateTable('courses')
    .set({
      subtitle: fields.subtitle,
      category_id: fields.categoryId,
      level: fields.level,
      language: fields.language,
      what_you_will_learn: JSON.stringify(fields.whatYouWillLearn),
      requirements: JSON.stringify(fields.requirements),
      image_url: fields.imageUrl || PLACEHOLDER_IMAGE_URL,
      certificate: fields.certificate,
      ...(reviewed
        ? {
            title: reviewed.title,
            ...priceColumns({ USD: reviewed.priceUsdMinor, GBP: reviewed.priceGbpMinor }, reviewed.listCurrency),
            description: reviewed.description,
          }
        : {}),
      updated_at: clock.now(),
    })
    .where('id', '=', courseId)
    .execute()
}

/** The course's image alone (an immediate field: no review), in the caller's transaction. */
export async function writeCourseImage(trx: DB, courseId: string, imageUrl: string): Promise<void> {
  await trx
    .updateTable('courses')
    .set({ image_url: imageUrl || PLACEHOLDER_IMAGE_URL, updated_at: clock.now() })
    .where('id', '=', courseId)
    .execute()
}

/** The categories a course can be filed under, by name (the studio's category choice). */
export function listCategoryChoices(db: DB) {
  return db.selectFrom('categories').select(['id', 'name']).orderBy('name').execute()
}
