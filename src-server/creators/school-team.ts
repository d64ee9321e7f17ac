// A school's team (decision 0057): members with one role each. The owner's e-mailed invitations are
// creators/invites.ts's (scope 'school').
import type { SchoolMemberRole } from '../../db/types.ts'
import type { DB } from '../kernel/db.ts'

export function schoolMembers(db: DB, schoolId: string) {
  return db
    .selectFrom('school_members as m')
    .innerJoin('users as u', 'u.id', 'm.user_id')
    .select(['u.id', 'u.email', 'u.first_name', 'u.last_name', 'm.role', 'm.created_at'])
    .where('m.school_id', '=', schoolId)
    .orderBy('m.created_at')
    .execute()
}

/** Adds the member, or gives an existing member the invitation's role. */
export async function putSchoolMember(
  db: DB,
  values: { schoolId: string; userId: string; role: SchoolMemberRole; addedBy: string | null },
): Promise<void> {
  await db
    .insertInto('school_members')
    .values({ school_id: values.schoolId, user_id: values.userId, role: values.role, added_by: values.addedBy })
    .onConflict((oc) => oc.columns(['school_id', 'user_id']).doUpdateSet({ role: values.role }))
    .execute()
}

export async function setSchoolMemberRole(
  db: DB,
  schoolId: string,
  userId: string,
  role: SchoolMemberRole,
): Promise<boolean> {
  const row = await db
    .updateTable('school_members')
    .set({ role })
    .where('school_id', '=', schoolId)
    .where('user_id', '=', userId)
    .returning('user_id')
    .executeTakeFirst()
  return Boolean(row)
}

export async function removeSchoolMember(db: DB, schoolId: string, userId: string): Promise<boolean> {
  const row = await db
    .deleteFrom('school_members')
    .where('school_id', '=', schoolId)
    .where('user_id', '=', userId)
    .returning('user_id')
    .executeTakeFirst()
  return Boolean(row)
}

/** The schools the user belongs to as a member (not as owner), with the role in each. */
export function membershipsOf(db: DB, userId: string) {
  return db
    .selectFrom('school_members as m')
    .innerJoin('schools as s', 's.id', 'm.school_id')
    .select(['s.id', 's.name', 's.slug', 'm.role'])
    .where('m.user_id', '=', userId)
    .orderBy('s.name')
    .execute()
}

/** Whether the user belongs to any school's team (the studio's course procedures then ask their role per course). */
export async function belongsToAnySchool(db: DB, userId: string): Promise<boolean> {
  const row = await db
    .selectFrom('school_members')
    .select('school_id')
    .where('user_id', '=', userId)
    .limit(1)
    .executeTakeFirst()
  return Boolean(row)
}

/**
 * The name of the school whose team invitation this user accepted most recently and whose team they are no longer on
 * (removed, or left), else null: the studio's refusal then says so rather than "only approved creators".
 */
export async function schoolLeftBy(db: DB, userId: string): Promise<string | null> {
  const row = await db
    .selectFrom('school_invites as i')
    .innerJoin('schools as s', 's.id', 'i.school_id')
    .select('s.name')
    .where('i.accepted_by', '=', userId)
    .where(({ not, exists, selectFrom }) =>
      not(
        exists(
          selectFrom('school_members as m')
            .select('m.user_id')
            .whereRef('m.school_id', '=', 'i.school_id')
            .where('m.user_id', '=', userId),
        ),
      ),
    )
    .orderBy('i.accepted_at', 'desc')
    .limit(1)
    .executeTakeFirst()
  return row?.name ?? null
}
