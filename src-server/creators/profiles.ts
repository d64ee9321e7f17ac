// A creator's instructor profile (/instructors/{slug}): made when staff approve the application, edited by the
// creator in the studio. creators/ is the only writer of the profiles of creators (instructors with a user_id);
// the seed's house instructors (no user_id) stay run by staff. The catalogue only reads instructors.

import type { InstructorLinks } from '../../db/types.ts'
import { PLACEHOLDER_IMAGE_URL } from '../../src-shared/constants.ts'
import { fullName } from '../../src-shared/names.ts'
import * as clock from '../kernel/clock.ts'
import type { DB } from '../kernel/db.ts'
import { DomainError } from '../kernel/errors.ts'
import type { ImageType } from '../storage/image.ts'
import { UPLOAD_PREFIXES } from '../storage/keys.ts'
import type { FileStorage } from '../storage/storage.ts'

export const DEFAULT_CREATOR_TITLE = 'Instructor'

/** "Ada Lovelace" → "ada-lovelace" (letters and digits only; "instructor" when nothing is left). */
export function slugFromName(name: string): string {
  const base = name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 60)
    .replace(/-+$/g, '')
  return base || 'instructor'
}

/** `base` if no row of `table` has it as its slug yet, else the first of `base`-2, -3, … that none has. */
export async function unusedSlug(db: DB, table: 'instructors' | 'schools', base: string): Promise<string> {
  const taken = await db
    .selectFrom(table)
    .select('slug')
    .where((eb) => eb.or([eb('slug', '=', base), eb('slug', 'like', `${base}-%`)]))
    .execute()
  const used = new Set(taken.map((row) => row.slug))
  if (!used.has(base)) return base
  for (let n = 2; ; n++) if (!used.has(`${base}-${n}`)) return `${base}-${n}`
}

/**
 * Makes the user a creator with an instructor profile (name from the account, a unique slug, the default title),
 * in the caller's transaction. A user who already is a creator keeps their profile.
 */
export async function makeCreator(
  trx: DB,
  userId: string,
  approvedBy: string | null,
): Promise<{ instructorId: string; slug: string }> {
  const existing = await trx
    .selectFrom('creators')
    .innerJoin('instructors', 'instructors.id', 'creators.instructor_id')
    .select(['instructors.id', 'instructors.slug'])
    .where('creators.user_id', '=', userId)
    .executeTakeFirst()
  if (existing) return { instructorId: existing.id, slug: existing.slug }
  const user = await trx
    .selectFrom('users')
    .select(['first_name', 'last_name', 'email', 'avatar_url'])
    .where('id', '=', userId)
    .executeTakeFirstOrThrow()
  const name = fullName(user.first_name, user.last_name) || (user.email.split('@')[0] ?? 'Instructor')
  const slug = await unusedSlug(trx, 'instructors', slugFromName(name))
  const instructor = await trx
    .insertInto('instructors')
    .values({
      name,
      slug,
      user_id: userId,
      title: DEFAULT_CREATOR_TITLE,
      image_url: user.avatar_url ?? PLACEHOLDER_IMAGE_URL,
    })
    .returning('id')
    .executeTakeFirstOrThrow()
  await trx
    .insertInto('creators')
    .values({ user_id: userId, instructor_id: instructor.id, approved_by: approvedBy })
    .execute()
  return { instructorId: instructor.id, slug }
}

export interface CreatorProfile {
  instructorId: string
  slug: string
  name: string
  title: string
  bio: string
  imageUrl: string
  links: InstructorLinks
}

/** The creator's own profile, for the studio's profile form. */
export async function ownProfile(db: DB, userId: string): Promise<CreatorProfile> {
  const row = await db
    .selectFrom('creators')
    .innerJoin('instructors', 'instructors.id', 'creators.instructor_id')
    .select([
      'instructors.id as instructorId',
      'instructors.slug',
      'instructors.name',
      'instructors.title',
      'instructors.bio',
      'instructors.image_url as imageUrl',
      'instructors.links',
    ])
    .where('creators.user_id', '=', userId)
    .executeTakeFirst()
  if (!row) throw new DomainError('not_found', 'Profile not found')
  return row
}

/** Saves the creator's profile (in the caller's transaction); the slug stays, so links to it keep working. */
export async function saveProfile(
  trx: DB,
  userId: string,
  values: { name: string; title: string; bio: string; links: InstructorLinks },
): Promise<{ instructorId: string }> {
  const row = await trx
    .updateTable('instructors')
    .set({
      name: values.name,
      title: values.title,
      bio: values.bio,
      links: JSON.stringify(values.links),
    })
    .where('user_id', '=', userId)
    .where('id', 'in', (eb) => eb.selectFrom('creators').select('instructor_id').where('user_id', '=', userId))
    .returning('id')
    .executeTakeFirst()
  if (!row) throw new DomainError('not_found', 'Profile not found')
  return { instructorId: row.id }
}

/**
 * Stores a new profile photo under a fresh key, points the profile at it, then removes the previous upload (a
 * static placeholder or a foreign URL is left alone). Returns the new URL.
 */
export async function replaceProfilePhoto(
  db: DB,
  storage: FileStorage,
  userId: string,
  image: { data: Buffer; type: ImageType },
): Promise<string> {
  const profile = await ownProfile(db, userId)
  const key = `${UPLOAD_PREFIXES.avatars}instructors/${profile.instructorId}-${clock.nowMs().toString(36)}.${image.type.ext}`
  const url = await storage.put(key, image.data, image.type.mime)
  try {
    await db.updateTable('instructors').set({ image_url: url }).where('id', '=', profile.instructorId).execute()
  } catch (error) {
    await storage.remove(key).catch(() => undefined)
    throw error
  }
  const oldKey = storage.keyFromUrl(profile.imageUrl)
  if (oldKey?.startsWith(`${UPLOAD_PREFIXES.avatars}instructors/`) && oldKey !== key) {
    await storage.remove(oldKey).catch(() => undefined)
  }
  return url
}
