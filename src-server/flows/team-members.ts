// A team member's role changed or taken away (Team Members): the team's change and, when the member can no longer
// work service orders (removed, or made a viewer), their open orders unassigned, in one transaction.
import { hasRole } from '../../src-shared/roles.ts'
import type { Actor } from '../audit/repository.ts'
import type { DB } from '../kernel/db.ts'
import { releaseAssignments } from '../service-orders/staff.ts'
import { changeRole, removeMember } from '../team/members.ts'

export function changeTeamRole(db: DB, actor: Actor, userId: string, role: 'admin' | 'editor' | 'viewer') {
  return db.transaction().execute(async (trx) => {
    const result = await changeRole(trx, actor, userId, role)
    if (!hasRole(role, 'editor')) await releaseAssignments(trx, actor, userId)
    return result
  })
}

export function removeTeamMember(db: DB, actor: Actor, userId: string) {
  return db.transaction().execute(async (trx) => {
    await removeMember(trx, actor, userId)
    await releaseAssignments(trx, actor, userId)
  })
}
