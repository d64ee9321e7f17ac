// Creators for studio tests (integration and e2e): a customer account with an instructor profile and a creators row,
// as an approved application leaves it; finished video uploads as the tus route leaves them.
import { randomBytes } from 'node:crypto'
import type { Kysely } from 'kysely'
import type { Database } from '../../db/types.ts'
import { createUser, type TestUser } from './factories.ts'

export async function makeCreator(db: Kysely<Database>, name = 'Casey Creator', email?: string): Promise<TestUser> {
  const [firstName, ...rest] = name.split(' ')
  const user = await createUser(db, { firstName, lastName: rest.join(' ') || 'Creator', ...(email ? { email } : {}) })
  const instructor = await db
    .insertInto('instructors')
    .values({
      name,
      slug: `${name.toLowerCase().replace(/\W+/g, '-')}-${randomBytes(3).toString('hex')}`,
      user_id: user.id,
    })
    .returning('id')
    .executeTakeFirstOrThrow()
  await db.insertInto('creators').values({ user_id: user.id, instructor_id: instructor.id }).execute()
  return user
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
