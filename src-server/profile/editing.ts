// Profile changes: name, e-mail preferences, and the avatar image (stored through FileStorage; the previous file is
// removed).
import * as clock from '../kernel/clock.ts'
import type { DB } from '../kernel/db.ts'
import type { ImageType } from '../storage/image.ts'
import { UPLOAD_PREFIXES } from '../storage/keys.ts'
import type { FileStorage } from '../storage/storage.ts'
import { mutedCourseIds } from '../users/course-news.ts'

export { AVATAR_MESSAGES } from '../../src-shared/uploads.ts'

export async function updateProfileName(db: DB, userId: string, firstName: string, lastName: string) {
  await db
    .updateTable('users')
    .set({ first_name: firstName, last_name: lastName, updated_at: clock.now() })
    .where('id', '=', userId)
    .execute()
}

/** What the person chose to receive by e-mail (the account page's E-mail preferences). */
export async function mailPreferencesOf(db: DB, userId: string) {
  const row = await db
    .selectFrom('users')
    .select('course_update_mails')
    .where('id', '=', userId)
    .executeTakeFirstOrThrow()
  return { courseUpdates: row.course_update_mails, mutedCourseIds: await mutedCourseIds(db, userId) }
}

export async function setMailPreferences(db: DB, userId: string, preferences: { courseUpdates: boolean }) {
  await db
    .updateTable('users')
    .set({ course_update_mails: preferences.courseUpdates, updated_at: clock.now() })
    .where('id', '=', userId)
    .execute()
  return mailPreferencesOf(db, userId)
}

/**
 * Stores a new avatar under a fresh key (so caches never show the old picture), points the user at it,
 * then removes the previous file. A previous file that is already gone, or foreign, is ignored.
 */
export async function replaceAvatar(
  db: DB,
  storage: FileStorage,
  userId: string,
  image: { data: Buffer; type: ImageType },
  log?: { warn: (obj: object, msg: string) => void },
): Promise<string> {
  const previous = await db.selectFrom('users').select('avatar_url').where('id', '=', userId).executeTakeFirst()
  const key = `${UPLOAD_PREFIXES.avatars}${userId}/avatar-${clock.nowMs().toString(36)}.${image.type.ext}`
  const url = await storage.put(key, image.data, image.type.mime)
  try {
    await db.updateTable('users').set({ avatar_url: url, updated_at: clock.now() }).where('id', '=', userId).execute()
  } catch (error) {
    await storage.remove(key).catch(() => undefined)
    throw error
  }
  const oldKey = previous?.avatar_url ? storage.keyFromUrl(previous.avatar_url) : null
  if (oldKey && oldKey !== key) {
    await storage.remove(oldKey).catch((error: unknown) => log?.warn({ err: error, oldKey }, 'old avatar not removed'))
  }
  return url
}
