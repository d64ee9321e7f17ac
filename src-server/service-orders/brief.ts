// The buyer's brief: saved as a draft any number of times while the order waits for it, submitted once complete
// (then locked until staff reopen it). Both use the schema built from the service's own intake form.

import { briefSchema } from '../../src-shared/schemas/service-brief.ts'
import { SERVICE_ORDER_MESSAGES } from '../../src-shared/service-orders.ts'
import * as clock from '../kernel/clock.ts'
import type { DB } from '../kernel/db.ts'
import { DomainError } from '../kernel/errors.ts'
import { auditTransition, type Viewer, visibleOrder } from './access.ts'
import { addBusinessDays } from './due.ts'
import { type MailLinks, mailStatusToBuyer, mailStatusToStaff } from './mails.ts'
import { syncRecurringDue } from './recurring.ts'
import { intakeFormOf } from './repository.ts'
import { moveServiceOrder } from './transitions.ts'

async function formOf(db: DB, serviceId: string | null) {
  if (!serviceId) return intakeFormOf(null)
  const row = await db.selectFrom('services').select('intake_form').where('id', '=', serviceId).executeTakeFirst()
  return intakeFormOf(row?.intake_form)
}

function locked() {
  return new DomainError('conflict', SERVICE_ORDER_MESSAGES.briefLocked)
}

/** Stores the answers as they are (shape and size checked only); refused once the brief is submitted. */
export async function saveDraft(db: DB, viewer: Viewer, id: string, brief: Record<string, unknown>) {
  const order = await visibleOrder(db, id, viewer, 'buyer')
  if (order.status !== 'brief_needed') throw locked()
  const draft = briefSchema(await formOf(db, order.service_id), 'draft').safeParse(brief)
  if (!draft.success) throw new DomainError('invalid', SERVICE_ORDER_MESSAGES.fixFields, { cause: draft.error })
  const result = await db
    .updateTable('service_orders')
    .set({ brief: JSON.stringify(draft.data), updated_at: clock.now() })
    .where('id', '=', id)
    .where('status', '=', 'brief_needed')
    .executeTakeFirst()
  if (result.numUpdatedRows === 0n) throw locked()
}

/**
 * Saves the answers, then submits them when complete: the draft is kept either way, so a refused submission
 * loses nothing. The due date is the submission plus the package's processing days.
 */
export async function submitBrief(
  db: DB,
  viewer: Viewer,
  id: string,
  brief: Record<string, unknown>,
  links: MailLinks,
  now = clock.now(),
) {
  await saveDraft(db, viewer, id, brief)
  const order = await visibleOrder(db, id, viewer, 'buyer')
  const complete = briefSchema(await formOf(db, order.service_id), 'submit').safeParse(brief)
  if (!complete.success) throw new DomainError('invalid', SERVICE_ORDER_MESSAGES.fixFields, { cause: complete.error })
  await db.transaction().execute(async (trx) => {
    await trx
      .updateTable('service_orders')
      .set({ brief: JSON.stringify(complete.data) })
      .where('id', '=', id)
      .execute()
    const moved = await moveServiceOrder(trx, id, 'submitBrief', viewer.id, {
      brief_submitted_at: now,
      due_at: addBusinessDays(now, order.processing_days),
    })
    if (!moved) throw locked()
    // A recurring order is due by its months' reports instead.
    if (order.recurring) await syncRecurringDue(trx, id)
    await mailStatusToStaff(trx, id, 'submitted', links)
  })
}

/** Staff send a submitted brief back for changes: editable again, and the due date waits for the new one. */
export async function reopenBrief(db: DB, actor: Viewer, id: string, links: MailLinks) {
  await visibleOrder(db, id, actor, 'staff')
  await db.transaction().execute(async (trx) => {
    const from = await moveServiceOrder(trx, id, 'reopenBrief', actor.id, { due_at: null })
    if (!from) throw new DomainError('conflict', 'Only a submitted brief can be reopened')
    await auditTransition(trx, actor, 'service_order.reopenBrief', id, from, 'brief_needed')
    await mailStatusToBuyer(trx, id, 'brief_needed', links)
  })
}
