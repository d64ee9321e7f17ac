// Dedicated success managers (the Enterprise promise on /pricing): one staff member per Enterprise member, whom
// the member sees on /contact and whose inbox their messages reach. Who may be assigned is the flow's to check.
import { STAFF_ROLES } from '../../src-shared/roles.ts'
import * as audit from '../audit/repository.ts'
import * as clock from '../kernel/clock.ts'
import type { DB } from '../kernel/db.ts'

/** The member's manager (name and address), or null. */
export function successManagerOf(db: DB, memberId: string) {
  return db
    .selectFrom('success_managers as sm')
    .innerJoin('users as manager', 'manager.id', 'sm.manager_id')
    .select(['manager.id', 'manager.first_name as firstName', 'manager.last_name as lastName', 'manager.email'])
    .where('sm.member_id', '=', memberId)
    .where('manager.role', 'in', [...STAFF_ROLES]) // someone no longer on the staff manages no one
    .executeTakeFirst()
}

/** Every assignment, members by name, with both sides' names and addresses. */
export async function listSuccessManagers(db: DB) {
  const rows = await db
    .selectFrom('success_managers as sm')
    .innerJoin('users as member', 'member.id', 'sm.member_id')
    .innerJoin('users as manager', 'manager.id', 'sm.manager_id')
    .select([
      'member.id as memberId',
      'member.email as memberEmail',
      'member.first_name as memberFirstName',
      'member.last_name as memberLastName',
      'manager.id as managerId',
      'manager.email as managerEmail',
      'sm.assigned_at as assignedAt',
    ])
    .orderBy('member.email')
    .execute()
  return rows.map((row) => ({ ...row, assignedAt: row.assignedAt.toISOString() }))
}

/** Sets (or replaces) the member's manager, with an audit entry naming both. */
export async function assignSuccessManager(
  db: DB,
  actor: audit.Actor,
  memberId: string,
  managerId: string,
  now = clock.now(),
) {
  await db.transaction().execute(async (trx) => {
    const before = await trx
      .selectFrom('success_managers')
      .select('manager_id')
      .where('member_id', '=', memberId)
      .executeTakeFirst()
    await trx
      .insertInto('success_managers')
      .values({ member_id: memberId, manager_id: managerId, assigned_at: now })
      .onConflict((oc) => oc.column('member_id').doUpdateSet({ manager_id: managerId, assigned_at: now }))
      .execute()
    await audit.record(trx, actor, 'support.manager_assigned', {
      type: 'user',
      id: memberId,
      before: before ? { managerId: before.manager_id } : null,
      after: { managerId },
    })
  })
}

/** Ends the member's assignment; false when they had none. */
export async function removeSuccessManager(db: DB, actor: audit.Actor, memberId: string) {
  return db.transaction().execute(async (trx) => {
    const removed = await trx
      .deleteFrom('success_managers')
      .where('member_id', '=', memberId)
      .returning('manager_id')
      .executeTakeFirst()
    if (!removed) return false
    await audit.record(trx, actor, 'support.manager_removed', {
      type: 'user',
      id: memberId,
      before: { managerId: removed.manager_id },
      after: null,
    })
    return true
  })
}

/** The staff member with this id (any staff role), or undefined. */
export function staffMemberById(db: DB, id: string) {
  return db
    .selectFrom('users')
    .select(['id', 'email'])
    .where('id', '=', id)
    .where('role', 'in', [...STAFF_ROLES])
    .executeTakeFirst()
}
