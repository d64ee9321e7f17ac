// Support signs a customer out on every device (decision 0162): a customer whose account someone else got into (a
// shared computer, a phone they lost, an address changed behind their back and moved back by support) cannot end the
// other sessions themselves when they cannot sign in. Nothing else changes: they sign in again at once if they can.
import { type Actor, record } from '../audit/repository.ts'
import { endAllSignIns } from '../auth/end-sign-ins.ts'
import { queueSignedOutByStaffNotice } from '../auth/security-mails.ts'
import { sessionSummary } from '../auth/session-list.ts'
import { type DB, inTransaction } from '../kernel/db.ts'
import { accountForStaffAction } from '../users/contact.ts'

export const STAFF_SIGN_OUT_MESSAGES = {
  staffAccount: 'This is a member of the staff team: they end their sessions on their own security page.',
  done: 'The customer is signed out on every device, and was told by e-mail.',
} as const

/** Where the account is signed in now, as the customer page shows it: how many devices, and the latest activity. */
export async function signInsOf(db: DB, userId: string) {
  const sessions = await sessionSummary(db, userId)
  return { devices: sessions.count, lastActiveAt: sessions.lastSeenAt?.toISOString() ?? null }
}

/** Ends the customer's sessions, half-finished log-ins and hand-off codes; audited; the customer is told. */
export async function signOutCustomerEverywhere(db: DB, staff: Actor, customerId: string, publicUrl: string) {
  const customer = await accountForStaffAction(db, customerId, STAFF_SIGN_OUT_MESSAGES.staffAccount)
  await inTransaction(db, async (trx) => {
    await endAllSignIns(trx, customer.id)
    await record(trx, staff, 'customer.signed_out', { type: 'user', id: customer.id })
    await queueSignedOutByStaffNotice(trx, customer.id, publicUrl)
  })
  return { message: STAFF_SIGN_OUT_MESSAGES.done, signIns: await signInsOf(db, customer.id) }
}
