// Team members are users with a staff role. The owner (super_admin) can never be changed or removed;
// removing a member takes the staff role away and ends their sessions at once. Both run in the caller's transaction
// when given one (flows/team-members.ts also takes the member off the service orders they can no longer work).

import { sql } from 'kysely'
import { fullName } from '../../src-shared/names.ts'
import { STAFF_ROLES } from '../../src-shared/roles.ts'
import * as audit from '../audit/repository.ts'
import { invalidateUserSessions } from '../auth/session.ts'
import { SESSION_USER_COLUMNS } from '../auth/session-user.ts'
import * as clock from '../kernel/clock.ts'
import { type DB, inTransaction } from '../kernel/db.ts'
import { DomainError } from '../kernel/errors.ts'

export async function listTeam(db: DB) {
  const rows = await db
    .selectFrom('users')
    .leftJoin('sessions', 'sessions.user_id', 'users.id')
    .select([...SESSION_USER_COLUMNS, sql<Date | null>`max(sessions.last_seen_at)`.as('last_active')])
    .where('users.role', 'in', [...STAFF_ROLES])
    .groupBy('users.id')
    .orderBy(sql`users.role = 'super_admin'`, 'desc')
    .orderBy('users.created_at')
    .execute()
  return rows.map((row) => ({
    id: row.id,
    name: fullName(row.first_name, row.last_name) || row.email,
    email: row.email,
    avatarUrl: row.avatar_url,
    role: row.role,
    isOwner: row.role === 'super_admin',
    lastActive: row.last_active ? new Date(row.last_active).toISOString() : null,
  }))
}

async function findMember(db: DB, actor: audit.Actor, userId: string) {
  const member = await db
    .selectFrom('users')
    .select(['id', 'email', 'role'])
    .where('id', '=', userId)
    .where('role', 'in', [...STAFF_ROLES])
    .executeTakeFirst()
  if (!member) throw new DomainError('not_found', 'Team member not found')
  if (member.role === 'super_admin') {
    throw new DomainError('forbidden', 'The owner account cannot be changed or removed')
  }
  if (member.id === actor.id) {
    throw new DomainError('forbidden', 'You cannot change or remove your own account')
  }
  return member
}

export async function changeRole(db: DB, actor: audit.Actor, userId: string, role: 'admin' | 'editor' | 'viewer') {
  const member = await findMember(db, actor, userId)
  await inTransaction(db, async (trx) => {
    await trx.updateTable('users').set({ role, updated_at: clock.now() }).where('id', '=', userId).execute()
    await audit.record(trx, actor, 'team.role', {
      type: 'team_member',
      id: userId,
      before: { email: member.email, role: member.role },
      after: { email: member.email, role },
    })
  })
  return { id: userId, role }
}

export async function removeMember(db: DB, actor: audit.Actor, userId: string) {
  const member = await findMember(db, actor, userId)
  await inTransaction(db, async (trx) => {
    await trx.updateTable('users').set({ role: 'customer', updated_at: clock.now() }).where('id', '=', userId).execute()
    await invalidateUserSessions(trx, userId)
    await audit.record(trx, actor, 'team.remove', {
      type: 'team_member',
      id: userId,
      before: { email: member.email, role: member.role },
      after: { email: member.email, role: 'customer' },
    })
  })
}

/** Where alerts for the people who run orders go (disputes, refund requests): admins and the owner. */
export async function adminEmails(db: DB): Promise<string[]> {
  const rows = await db.selectFrom('users').select('email').where('role', 'in', ['admin', 'super_admin']).execute()
  return rows.map((row) => row.email)
}
