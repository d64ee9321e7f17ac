// A creator saves their instructor profile: the profile (creators/) and, when the name changed, the name the
// catalogue shows on their courses' cards, in one transaction.
import type { ProfileInput } from '../../src-shared/schemas/creators.ts'
import { renameInstructorOnCourses } from '../catalog/instructors.ts'
import { ownProfile, saveProfile } from '../creators/profiles.ts'
import type { DB } from '../kernel/db.ts'

export async function updateCreatorProfile(db: DB, userId: string, input: ProfileInput) {
  await db.transaction().execute(async (trx) => {
    const { instructorId } = await saveProfile(trx, userId, input)
    await renameInstructorOnCourses(trx, instructorId, input.name)
  })
  return ownProfile(db, userId)
}
