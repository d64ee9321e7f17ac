// A creator's school (decision 0057): one per creator, its name and slug (the public page /s/{slug}). Made with the
// creator on approval, by the migration for earlier creators, and on first use for any creator still without one.
// creators/ is the only writer of schools.
import { sql } from 'kysely'
import * as clock from '../kernel/clock.ts'
import type { DB } from '../kernel/db.ts'
import { DomainError } from '../kernel/errors.ts'
import { isUniqueViolation } from '../kernel/pg-errors.ts'
import { ownedCourses } from './course-team.ts'
import { slugFromName, unusedSlug } from './profiles.ts'

export interface School {
  id: string
  ownerId: string
  name: string
  slug: string
}

const COLUMNS = ['id', 'owner_id', 'name', 'slug'] as const

function toSchool(row: { id: string; owner_id: string; name: string; slug: string }): School {
  return { id: row.id, ownerId: row.owner_id, name: row.name, slug: row.slug }
}

export async function schoolOfOwner(db: DB, ownerId: string): Promise<School | null> {
  const row = await db.selectFrom('schools').select(COLUMNS).where('owner_id', '=', ownerId).executeTakeFirst()
  return row ? toSchool(row) : null
}

export async function schoolById(db: DB, schoolId: string): Promise<School | null> {
  const row = await db.selectFrom('schools').select(COLUMNS).where('id', '=', schoolId).executeTakeFirst()
  return row ? toSchool(row) : null
}

export async function schoolBySlug(db: DB, slug: string): Promise<School | null> {
  const row = await db.selectFrom('schools').select(COLUMNS).where('slug', '=', slug).executeTakeFirst()
  return row ? toSchool(row) : null
}

/** A slug no school uses yet: the base, else the base with -2, -3, … */
function freeSchoolSlug(db: DB, name: string): Promise<string> {
  return unusedSlug(db, 'schools', slugFromName(name).slice(0, 55).replace(/-+$/g, '') || 'school')
}

/**
 * The creator's school, made when missing (named after their instructor profile, its slug if free). Concurrent
 * first calls meet on the owner's unique key, or the slug's: one inserts, the other reads it (or, when another
 * school took the slug meanwhile, takes the next free one).
 */
export async function ensureSchool(db: DB, ownerId: string): Promise<School> {
  const existing = await schoolOfOwner(db, ownerId)
  if (existing) return existing
  const profile = await db
    .selectFrom('creators')
    .innerJoin('instructors', 'instructors.id', 'creators.instructor_id')
    .select(['instructors.name', 'instructors.slug'])
    .where('creators.user_id', '=', ownerId)
    .executeTakeFirst()
  if (!profile) throw new DomainError('forbidden', 'Only approved creators have a school')
  // No conflict target: the two calls' inserts may meet on the slug's unique key before the owner's (one of them
  // then raised a 500); a slug another school took meanwhile is looked for again.
  for (let attempt = 0; attempt < 3; attempt++) {
    const slug = await freeSchoolSlug(db, profile.slug || profile.name)
    await db
      .insertInto('schools')
      .values({ owner_id: ownerId, name: profile.name.slice(0, 120) || 'My school', slug })
      .onConflict((oc) => oc.doNothing())
      .execute()
    const made = await schoolOfOwner(db, ownerId)
    if (made) return made
  }
  throw new DomainError('conflict', 'The school could not be made: try again')
}

/** Renames the school or moves its address; a slug another school uses is refused on the slug field. */
export async function updateSchool(db: DB, schoolId: string, values: { name: string; slug: string }): Promise<void> {
  const clash = await db
    .selectFrom('schools')
    .select('id')
    .where('slug', '=', values.slug)
    .where('id', '!=', schoolId)
    .executeTakeFirst()
  if (clash) throw new DomainError('conflict', 'Another school uses this address', { field: 'slug' })
  try {
    await db
      .updateTable('schools')
      .set({ name: values.name, slug: values.slug, updated_at: clock.now() })
      .where('id', '=', schoolId)
      .execute()
  } catch (error) {
    if (isUniqueViolation(error)) {
      throw new DomainError('conflict', 'Another school uses this address', { field: 'slug' })
    }
    throw error
  }
}

/** The school a course belongs to: its owner's. */
export async function schoolOfCourse(db: DB, courseId: string): Promise<School | null> {
  const row = await db
    .selectFrom('course_instructors as ci')
    .innerJoin('schools as s', 's.owner_id', 'ci.user_id')
    .select(['s.id', 's.owner_id', 's.name', 's.slug'])
    .where('ci.course_id', '=', courseId)
    .where('ci.role', '=', 'owner')
    .executeTakeFirst()
  return row ? toSchool(row) : null
}

/** The school of each of these courses that has one (its owner's), by course id: one query. */
export async function schoolsOfCourses(db: DB, courseIds: readonly string[]): Promise<Map<string, School>> {
  if (courseIds.length === 0) return new Map()
  const rows = await db
    .selectFrom('course_instructors as ci')
    .innerJoin('schools as s', 's.owner_id', 'ci.user_id')
    .select(['ci.course_id', 's.id', 's.owner_id', 's.name', 's.slug'])
    .where('ci.course_id', 'in', courseIds)
    .where('ci.role', '=', 'owner')
    .execute()
  return new Map(rows.map((row) => [row.course_id, toSchool(row)]))
}

/** The school of each of these courses that has one, as its slug by course id: one query. */
export async function schoolSlugsOfCourses(db: DB, courseIds: readonly string[]): Promise<Map<string, string>> {
  const schools = await schoolsOfCourses(db, courseIds)
  return new Map([...schools].map(([courseId, school]) => [courseId, school.slug]))
}

/** The school of each of these owners that has one, as its slug by owner id: one query. */
export async function schoolSlugsOfOwners(db: DB, ownerIds: readonly string[]): Promise<Map<string, string>> {
  if (ownerIds.length === 0) return new Map()
  const rows = await db.selectFrom('schools').select(['owner_id', 'slug']).where('owner_id', 'in', ownerIds).execute()
  return new Map(rows.map((row) => [row.owner_id, row.slug]))
}

/** The published courses' ids of the school (its owner's courses), for the public page. */
export async function schoolCourseIds(db: DB, ownerId: string): Promise<string[]> {
  const rows = await ownedCourses(db, ownerId).execute()
  return rows.map((row) => row.course_id)
}

/** Everyone who teaches in the school: the owner's instructor profile, then co-instructors and instructor members. */
export async function schoolInstructorUserIds(db: DB, school: School): Promise<string[]> {
  const owned = ownedCourses(db, school.ownerId)
  const rows = await db
    .selectFrom('course_instructors')
    .select(['user_id', sql<number>`min(created_at)::text`.as('first')])
    .where('course_id', 'in', owned)
    .where('role', '=', 'co')
    .groupBy('user_id')
    .union(
      db
        .selectFrom('school_members')
        .select(['user_id', sql<number>`created_at::text`.as('first')])
        .where('school_id', '=', school.id)
        .where('role', '=', 'instructor'),
    )
    .execute()
  const ids = [school.ownerId, ...rows.map((row) => row.user_id)]
  return [...new Set(ids)]
}

/** Whether a school answers at /s/{slug} (the page status table's check). */
export async function schoolSlugExists(db: DB, slug: string): Promise<boolean> {
  return (await schoolBySlug(db, slug)) !== null
}
