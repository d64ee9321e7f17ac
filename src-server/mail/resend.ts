// Resend (from /admin/outbox): a failed message goes back on the job queue, and the audit log says who sent it.
import * as audit from '../audit/repository.ts'
import type { DB } from '../kernel/db.ts'
import { DomainError } from '../kernel/errors.ts'
import { findOutboxMessage, requeueFailed } from './repository.ts'

export const RESEND_ONLY_FAILED = 'Only a failed message can be resent'

export async function resendFailedMail(db: DB, actor: audit.Actor, id: string) {
  return db.transaction().execute(async (trx) => {
    if (!(await requeueFailed(trx, id))) {
      const message = await findOutboxMessage(trx, id)
      if (!message) throw new DomainError('not_found', 'Message not found')
      throw new DomainError('conflict', RESEND_ONLY_FAILED)
    }
    await audit.record(trx, actor, 'mail.resend', { type: 'mail', id, after: { status: 'pending' } })
    return { id, status: 'pending' as const }
  })
}
