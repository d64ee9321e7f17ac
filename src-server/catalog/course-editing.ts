// Course changes made by staff. Each change and its audit record share one transaction.

import { randomBytes } from 'node:crypto'
import type { z } from 'zod'
import type { CourseFilter, courseInput } from '../../src-shared/schemas/admin.ts'
import * as audit from '../audit/repository.ts'
import * as clock from '../kernel/clock.ts'
import type { DB } from '../kernel/db.ts'
import { DomainError } from '../kernel/errors.ts'
import type { FileStorage } from '../storage/storage.ts'
import { assertCourseImage } from './course-image.ts'
import { toAdminCourse, toCourseValues, toSectionValues } from './course-mapping.ts'
import { writeCurriculum } from './curriculum-editing.ts'
import { readCurricula, readCurriculum } from './repository-lessons.ts'
import { findAdminCourse, listAdminCourses } from './repository-staff.ts'

type ParsedCourse = z.output<typeof courseInput>

export function slugify(title: string): string {
  const slug = title
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 80)
  return slug || 'course'
}

export async function freeCourseId(db: DB, title: string): Promise<string> {
  const base = slugify(title)
  const taken = await db.selectFrom('courses').select('id').where('id', '=', base).executeTakeFirst()
  return taken ? `${base}-${randomBytes(3).toString('hex')}` : base
}

export async function assertCategory(db: DB, categoryId: string) {
  const found = await db.selectFrom('categories').select('id').where('id', '=', categoryId).executeTakeFirst()
  if (!found) throw new DomainError('invalid', 'Please choose a category', { field: 'categoryId' })
}

async function loadCourse(db: DB, id: string) {
  const row = await findAdminCourse(db, id)
  if (!row) throw new DomainError('not_found', 'Course not found')
  return toAdminCourse(row, await readCurriculum(db, id, true))
}

/** One page of Manage Courses, each course with its curriculum (read in one query for the page). */
export async function adminCoursePage(db: DB, filter: CourseFilter, search: string, page: number) {
  const { rows, counts, ...paging } = await listAdminCourses(db, filter, search, page)
  const curricula = await readCurricula(
    db,
    rows.map((row) => row.id),
  )
  return { items: rows.map((row) => toAdminCourse(row, curricula.get(row.id) ?? [])), counts, ...paging }
}

type ImageUrls = Pick<FileStorage, 'keyFromUrl'>

export async function createCourse(db: DB, actor: audit.Actor, input: ParsedCourse, images: ImageUrls) {
  assertCourseImage(input.imageUrl, images)
  await assertCategory(db, input.categoryId)
  const id = await freeCourseId(db, input.title)
  const values = toCourseValues(input)
  return db.transaction().execute(async (trx) => {
    await trx
      .insertInto('courses')
      .values({ id, ...values, published_at: values.status === 'published' ? clock.now() : null })
      .execute()
    await writeCurriculum(trx, id, toSectionValues(input))
    const after = await loadCourse(trx, id)
    await audit.record(trx, actor, 'course.create', { type: 'course', id, after })
    return after
  })
}

export async function updateCourse(db: DB, actor: audit.Actor, id: string, input: ParsedCourse, images: ImageUrls) {
  const before = await loadCourse(db, id)
  assertCourseImage(input.imageUrl, images, before.imageUrl)
  await assertCategory(db, input.categoryId)
  const values = toCourseValues(input, before.currency)
  return db.transaction().execute(async (trx) => {
    const publishing = values.status === 'published' && before.status !== 'published'
    await trx
      .updateTable('courses')
      .set({ ...values, updated_at: clock.now(), ...(publishing ? { published_at: clock.now() } : {}) })
      .where('id', '=', id)
      .execute()
    await writeCurriculum(trx, id, toSectionValues(input))
    const after = await loadCourse(trx, id)
    await audit.record(trx, actor, 'course.update', { type: 'course', id, before, after })
    return after
  })
}

export async function setCourseFeatured(db: DB, actor: audit.Actor, id: string, featured: boolean) {
  const before = await loadCourse(db, id)
  await db.transaction().execute(async (trx) => {
    await trx.updateTable('courses').set({ featured, updated_at: clock.now() }).where('id', '=', id).execute()
    await audit.record(trx, actor, featured ? 'course.feature' : 'course.unfeature', {
      type: 'course',
      id,
      before: { featured: before.featured },
      after: { featured },
    })
  })
  return { id, featured }
}

/**
 * Deletes a course, or archives it when someone bought it (its orders keep pointing at it): the caller says which
 * (flows/course-purchases.ts asks orders and the access ledger).
 */
export async function deleteCourse(
  db: DB,
  actor: audit.Actor,
  id: string,
  archived: boolean,
): Promise<{ archived: boolean }> {
  const before = await loadCourse(db, id)
  await db.transaction().execute(async (trx) => {
    if (archived) {
      await trx
        .updateTable('courses')
        .set({ status: 'archived', featured: false, updated_at: clock.now() })
        .where('id', '=', id)
        .execute()
    } else {
      await trx.deleteFrom('courses').where('id', '=', id).execute()
    }
    await audit.record(trx, actor, archived ? 'course.archive' : 'course.delete', {
      type: 'course',
      id,
      before,
      after: archived ? { status: 'archived' } : null,
    })
  })
  return { archived }
}
