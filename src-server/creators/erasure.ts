// An erased account's creator side (decision 0053): the public instructor profile stays for the courses' learners,
// anonymised and run by the house; applications are deleted. Returns the attachments' storage keys to remove. Their
// places on schools' and courses' teams end, and every API key they hold, or that their own school holds, is revoked.
import { PLACEHOLDER_IMAGE_URL } from '../../src-shared/constants.ts'
import * as clock from '../kernel/clock.ts'
import type { DB } from '../kernel/db.ts'
import { removeCoInstructor } from './course-instructors.ts'
import { coursesTaughtAs } from './course-team.ts'

/** The name an erased creator's profile shows (their courses' cards too). */
export const FORMER_INSTRUCTOR_NAME = 'Former instructor'

/**
 * Anonymises the person's instructor profile (name, title, bio, links, photo, and its address, which was made from
 * their name) and deletes their applications. Returns what the caller finishes: each profile's former name and photo
 * (the courses' cards and the search words still carry the name; the photo's file goes after commit) and the
 * applications' attachment keys.
 */
export async function anonymiseCreator(db: DB, userId: string) {
  const profiles = await db
    .selectFrom('instructors')
    .select(['id', 'name', 'image_url'])
    .where('user_id', '=', userId)
    .execute()
  for (const profile of profiles) {
    await db
      .updateTable('instructors')
      .set({
        name: FORMER_INSTRUCTOR_NAME,
        title: '',
        bio: '',
        links: '{}',
        image_url: PLACEHOLDER_IMAGE_URL,
        slug: `former-instructor-${profile.id}`,
        user_id: null,
      })
      .where('id', '=', profile.id)
      .execute()
  }
  const applications = await db
    .deleteFrom('creator_applications')
    .where('user_id', '=', userId)
    .returning('attachment')
    .execute()
  return {
    formerProfiles: profiles.map((profile) => ({
      id: profile.id,
      formerName: profile.name,
      formerImageUrl: profile.image_url,
    })),
    attachmentKeys: applications.flatMap((row) => (row.attachment ? [row.attachment.key] : [])),
  }
}

/**
 * Ends the person's places on schools' and courses' teams (a co-instructor's percentage goes back to the course's
 * owner, so later sales pay the people still teaching) and revokes the API keys they hold and those of the school they
 * own (decision 0060: a key dies with its holder's place on the team; an erased account keeps neither).
 */
export async function endTeamPlaces(db: DB, userId: string): Promise<void> {
  await db.deleteFrom('school_members').where('user_id', '=', userId).execute()
  const coTaught = await coursesTaughtAs(db, userId, 'co').execute()
  for (const { course_id: courseId } of coTaught) await removeCoInstructor(db, courseId, userId)
  await db
    .updateTable('api_keys')
    .set({ revoked_at: clock.now() })
    .where('revoked_at', 'is', null)
    .where((eb) =>
      eb.or([
        eb('created_by', '=', userId),
        eb('school_id', 'in', eb.selectFrom('schools').select('id').where('owner_id', '=', userId)),
      ]),
    )
    .execute()
}

/**
 * Forgets the school, course and enrolment invitations the person accepted or that name their address, and the
 * enrolment invitations they sent as a school (their account erased): those name other people's addresses.
 */
export async function forgetInvitesOf(db: DB, userId: string, email: string): Promise<void> {
  for (const table of ['school_invites', 'course_instructor_invites', 'course_enrolment_invites'] as const) {
    await db
      .deleteFrom(table)
      .where((eb) =>
        eb.or([
          eb('accepted_by', '=', userId),
          eb(eb.fn('lower', ['email']), '=', email.toLowerCase()),
          ...(table === 'course_enrolment_invites' ? [eb('invited_by', '=', userId)] : []),
        ]),
      )
      .execute()
  }
}
