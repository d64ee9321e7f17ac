// What staff do to a service order (the role is checked by the router's staffProcedure): pick it up, deliver,
// cancel, assign. Each change, its history row, its audit record and the buyer's e-mail commit together.

import { hasRole } from '../../src-shared/roles.ts'
import * as audit from '../audit/repository.ts'
import type { DB } from '../db.ts'
import { DomainError } from '../errors.ts'
import { auditTransition, type Viewer, visibleOrder } from './access.ts'
import { attachFiles } from './files.ts'
import { type MailLinks, mailStatusToBuyer } from './mails.ts'
import { moveServiceOrder, SERVICE_ORDER_TRANSITIONS, type ServiceOrderTransition } from './transitions.ts'

const wrongStatus = () => new DomainError('conflict', 'This action is not available in the order’s current status')

async function staffMove(
  db: DB,
  actor: Viewer,
  id: string,
  transition: ServiceOrderTransition,
  links: MailLinks,
  work: (trx: DB) => Promise<Parameters<typeof moveServiceOrder>[4]> = async () => ({}),
) {
  await visibleOrder(db, id, actor, 'staff')
  const to = SERVICE_ORDER_TRANSITIONS[transition].to
  await db.transaction().execute(async (trx) => {
    const changes = await work(trx)
    const from = await moveServiceOrder(trx, id, transition, actor.id, changes)
    if (!from) throw wrongStatus()
    await auditTransition(trx, actor, `service_order.${transition}`, id, from, to)
    await mailStatusToBuyer(trx, id, to, links)
  })
}

export function startWork(db: DB, actor: Viewer, id: string, links: MailLinks) {
  return staffMove(db, actor, id, 'start', links)
}

export function cancelServiceOrder(db: DB, actor: Viewer, id: string, links: MailLinks, now = new Date()) {
  return staffMove(db, actor, id, 'cancel', links, async () => ({ cancelled_at: now }))
}

/** The deliverables: a note and files uploaded beforehand; the order waits for the buyer's answer. */
export function deliver(
  db: DB,
  actor: Viewer,
  id: string,
  delivery: { note: string; fileIds: string[] },
  links: MailLinks,
  now = new Date(),
) {
  if (!delivery.note.trim() && delivery.fileIds.length === 0) {
    throw new DomainError('invalid', 'Add a note or a file to deliver')
  }
  return staffMove(db, actor, id, 'deliver', links, async (trx) => {
    const row = await trx
      .insertInto('service_order_deliveries')
      .values({ service_order_id: id, note: delivery.note.trim(), delivered_by: actor.id })
      .returning('id')
      .executeTakeFirstOrThrow()
    await attachFiles(trx, id, actor.id, delivery.fileIds, { delivery_id: row.id }, 'delivery')
    return { delivered_at: now }
  })
}

/** Gives the order to a team member who can work it (editor and up), or nobody; audited. */
export async function assign(db: DB, actor: Viewer, id: string, assigneeId: string | null) {
  const order = await visibleOrder(db, id, actor, 'staff')
  if (assigneeId) {
    const member = await db.selectFrom('users').select('role').where('id', '=', assigneeId).executeTakeFirst()
    // Viewers cannot work an order, so they cannot own one.
    if (!member || !hasRole(member.role, 'editor')) throw new DomainError('invalid', 'Choose an editor or an admin')
  }
  await db.transaction().execute(async (trx) => {
    await trx
      .updateTable('service_orders')
      .set({ assignee_id: assigneeId, updated_at: new Date() })
      .where('id', '=', id)
      .execute()
    await audit.record(trx, actor, 'service_order.assign', {
      type: 'service_order',
      id,
      before: { assigneeId: order.assignee_id },
      after: { assigneeId },
    })
  })
}
