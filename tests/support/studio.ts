// Creators for studio tests (integration and e2e): a customer account with an instructor profile and a creators row,
// as an approved application leaves it; finished video uploads as the tus route leaves them.
import { randomBytes } from 'node:crypto'
import type { Kysely } from 'kysely'
import type { Database } from '../../db/types.ts'
import { addCourseOwner } from '../../src-server/creators/course-team.ts'
import { createUser, type TestUser } from './factories.ts'

export async function makeCreator(db: Kysely<Database>, name = 'Casey Creator', email?: string): Promise<TestUser> {
  const [firstName, ...rest] = name.split(' ')
  const user = await createUser(db, { firstName, lastName: rest.join(' ') || 'Creator', ...(email ? { email } : {}) })
  await approveCreator(db, user.id, name)
  return user
}

/** Makes an existing account a creator with an instructor profile (as an approved application does). */
export async function approveCreator(db: Kysely<Database>, userId: string, name: string): Promise<void> {
  const instructor = await db
    .insertInto('instructors')
    .values({
      name,
      // 6 random bytes: a long property run makes thousands of creators of one name (3 bytes collided in 200 runs).
      slug: `${name.toLowerCase().replace(/\W+/g, '-')}-${randomBytes(6).toString('hex')}`,
      user_id: userId,
    })
    .returning('id')
    .executeTakeFirstOrThrow()
  await db.insertInto('creators').values({ user_id: userId, instructor_id: instructor.id }).execute()
}

/** Makes the account a creator owning a draft course with one section and one text lesson; returns its id. */
export async function studioCourseOf(db: Kysely<Database>, userId: string): Promise<string> {
  await approveCreator(db, userId, 'Ada Lovelace')
  const id = `studio-course-${randomBytes(4).toString('hex')}`
  await db
    .insertInto('courses')
    .values({
      id,
      title: 'A Course in the Studio',
      category_id: await developmentCategory(db),
      instructor_name: 'Ada Lovelace',
      price_minor: 1999,
      owner_id: userId,
      what_you_will_learn: JSON.stringify(['One thing']),
      requirements: JSON.stringify([]),
    })
    .execute()
  await addCourseOwner(db, id, userId)
  const section = await db
    .insertInto('course_sections')
    .values({ course_id: id, position: 0, title: 'Getting started' })
    .returning('id')
    .executeTakeFirstOrThrow()
  await db
    .insertInto('lessons')
    .values({ course_id: id, section_id: section.id, position: 0, title: 'Welcome', duration_seconds: 180 })
    .execute()
  return id
}

/** A finished upload of the creator's ('stored'), ready to be claimed by a lesson. */
export async function storedUpload(
  db: Kysely<Database>,
  userId: string,
  options: { sizeBytes?: number; durationSeconds?: number | null; key?: string } = {},
) {
  const id = randomBytes(16).toString('hex')
  await db
    .insertInto('creator_uploads')
    .values({
      id,
      user_id: userId,
      storage_owner_id: userId,
      size_bytes: options.sizeBytes ?? 5_000_000,
      status: 'stored',
      storage_key: options.key ?? `private/lessons/videos/${id}.mp4`,
      file_name: 'lesson.mp4',
      content_type: 'video/mp4',
      duration_seconds: options.durationSeconds === undefined ? 125 : options.durationSeconds,
      finished_at: new Date(),
    })
    .execute()
  return id
}

export async function developmentCategory(db: Kysely<Database>): Promise<string> {
  const row = await db.selectFrom('categories').select('id').where('slug', '=', 'development').executeTakeFirstOrThrow()
  return row.id
}
