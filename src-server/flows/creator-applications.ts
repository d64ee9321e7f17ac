// Staff's decision on an application to teach, in one transaction: the application decided, on approval the
// creator and their instructor profile made, the audit row and the applicant's e-mail. Approving makes a customer
// account a creator (a capability, never a staff role).

import { REAPPLY_AFTER_DAYS } from '../../src-shared/schemas/creators.ts'
import * as audit from '../audit/repository.ts'
import { markDecided } from '../creators/applications.ts'
import { mailApplicationApproved, mailApplicationDeclined } from '../creators/mails.ts'
import { makeCreator } from '../creators/profiles.ts'
import { ensureSchool } from '../creators/schools.ts'
import * as clock from '../kernel/clock.ts'
import type { DB } from '../kernel/db.ts'

const DAY_MS = 24 * 60 * 60 * 1000

export async function approveApplication(db: DB, actor: audit.Actor, id: string, publicUrl: string) {
  return db.transaction().execute(async (trx) => {
    const { userId, before } = await markDecided(trx, id, { status: 'approved', reason: null, decidedBy: actor.id })
    const profile = await makeCreator(trx, userId, actor.id)
    // Every creator has a school (decision 0057), named and addressed after the new profile.
    await ensureSchool(trx, userId)
    await audit.record(trx, actor, 'creator_application.approve', {
      type: 'creator_application',
      id,
      before: { status: before },
      after: { status: 'approved', userId, instructorId: profile.instructorId, slug: profile.slug },
    })
    await mailApplicationApproved(trx, userId, publicUrl)
    return { status: 'approved' as const, slug: profile.slug }
  })
}

export async function declineApplication(db: DB, actor: audit.Actor, id: string, reason: string, publicUrl: string) {
  return db.transaction().execute(async (trx) => {
    const { userId, before } = await markDecided(trx, id, { status: 'declined', reason, decidedBy: actor.id })
    await audit.record(trx, actor, 'creator_application.decline', {
      type: 'creator_application',
      id,
      before: { status: before },
      after: { status: 'declined', reason },
    })
    await mailApplicationDeclined(trx, userId, reason, new Date(clock.nowMs() + REAPPLY_AFTER_DAYS * DAY_MS), publicUrl)
    return { status: 'declined' as const }
  })
}
