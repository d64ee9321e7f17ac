// Moving an account to another e-mail address (decision 0157). Asked for on My Account with a fresh proof (checked by
// the router, as for the other sensitive actions); a link goes to the new address, and the account moves only when it
// is used, which proves the new mailbox. The old address is told. The answer to the ask is the same whether or not the
// new address already has an account (that address gets a mail saying so instead of a link).
import { type Actor, record } from '../audit/repository.ts'
import { emailChangeByStaffMail, emailChangeMail, emailChangeTakenMail } from '../auth/mails.ts'
import { loadMe } from '../auth/me.ts'
import { emailChangedNotice, emailChangeStartedNotice } from '../auth/security-mails.ts'
import {
  consumeEmailChangeToken,
  deletePendingTokens,
  issueEmailChangeToken,
  pendingEmailChange,
} from '../auth/tokens.ts'
import * as clock from '../kernel/clock.ts'
import { type DB, inTransaction } from '../kernel/db.ts'
import { DomainError } from '../kernel/errors.ts'
import { isUniqueViolation } from '../kernel/pg-errors.ts'
import { enqueueMail } from '../mail/outbox.ts'
import type { StripeApi } from '../payments/stripe.ts'
import { followMovedAccount } from '../promotions/gifts.ts'
import { stripeCustomersOf } from '../subscriptions/repository.ts'
import { accountForStaffAction, existingUserContact } from '../users/contact.ts'
import { findUserByEmail, normaliseEmail } from '../users/email.ts'
import { endSessionsHeldToSso, schoolRequiringSsoOf } from './sso-hold.ts'

export const EMAIL_CHANGE_MESSAGES = {
  sameAddress: 'That is already your e-mail address.',
  managed: (school: string) =>
    `${school} requires its members to sign in with single sign-on, so your address is the one its sign-in gives: it cannot be changed here.`,
  sent: (email: string) =>
    `We sent a link to ${email}. Open it within an hour to move your account there; until then, your address stays as it is.`,
  badLink:
    'This link does not work any more: it was used, a newer one replaced it, or it expired. Ask for a new one on your account page.',
  taken: 'That address has an account of its own now, so your address did not change.',
  cancelled: 'The link is cancelled: your e-mail address stays as it is.',
  done: (email: string) => `Your account’s e-mail address is now ${email}. Use it to sign in from now on.`,
  nowHeld: (school: string) => ` ${school} requires its members to sign in with single sign-on: sign in there.`,
} as const

/** Why this account's address cannot be changed here (a school's required sign-in vouches for it), or null. */
export async function emailChangeRefusal(db: DB, userId: string): Promise<string | null> {
  const school = await schoolRequiringSsoOf(db, userId)
  return school ? EMAIL_CHANGE_MESSAGES.managed(school.name) : null
}

/** What My Account shows: whether a change is possible, and the address a link waits at. */
export async function emailChangeStatus(db: DB, userId: string) {
  const pending = await pendingEmailChange(db, userId)
  return {
    refusal: await emailChangeRefusal(db, userId),
    pending: pending ? { email: pending.email, expiresAt: pending.expiresAt.toISOString() } : null,
  }
}

/** Ends the link waiting at the new address (the person changed their mind, or mistyped it): the address stays. */
export async function cancelEmailChange(db: DB, userId: string) {
  await deletePendingTokens(db, userId, 'change_email')
  return { message: EMAIL_CHANGE_MESSAGES.cancelled }
}

/** Mails the change link to the new address (or, when it has an account, a mail saying nothing moved). */
export async function requestEmailChange(db: DB, userId: string, newEmail: string, publicUrl: string) {
  const address = newEmail.trim()
  const user = await existingUserContact(db, userId)
  if (normaliseEmail(address) === normaliseEmail(user.email)) {
    throw new DomainError('invalid', EMAIL_CHANGE_MESSAGES.sameAddress, { field: 'newEmail' })
  }
  const refusal = await emailChangeRefusal(db, userId)
  if (refusal) throw new DomainError('forbidden', refusal)
  await inTransaction(db, async (trx) => {
    // A link is made either way, so the account page shows the same "a link waits at …" for an address that has an
    // account: only that address's mail differs, and it carries no link (nobody can ever use this one).
    const token = await issueEmailChangeToken(trx, userId, address)
    const taken = await findUserByEmail(trx, address)
    await enqueueMail(
      trx,
      taken ? emailChangeTakenMail(address, publicUrl) : emailChangeMail(address, publicUrl, token),
    )
  })
  return { message: EMAIL_CHANGE_MESSAGES.sent(address) }
}

export const STAFF_EMAIL_CHANGE_MESSAGES = {
  staffAccount:
    'This is a member of the staff team: they change their address themselves, on their own account page, with their own proof.',
  sameAddress: 'That is already the customer’s address.',
  taken: 'That address has an account of its own. Look it up before moving anything.',
  sent: (email: string) =>
    `A link went to ${email}. The account moves when the customer opens it, within an hour; their current address has been told.`,
  cancelled: 'The link is cancelled: the customer’s address stays as it is.',
  nothingWaiting: 'No change of address waits for this customer.',
} as const

/**
 * Why support may not move this account (decision 0158): a staff account moves itself, with its own proof (a support
 * agent must not be able to take over an admin's account); a school's required sign-in vouches for a member's address.
 */
async function staffEmailChangeRefusal(db: DB, customer: { id: string; role: string }): Promise<string | null> {
  if (customer.role !== 'customer') return STAFF_EMAIL_CHANGE_MESSAGES.staffAccount
  return emailChangeRefusal(db, customer.id)
}

/** What the customer page shows support: the link waiting at a new address, or why support cannot move the account. */
export async function customerEmailChangeStatus(db: DB, customer: { id: string; role: string }) {
  const pending = await pendingEmailChange(db, customer.id)
  return {
    refusal: await staffEmailChangeRefusal(db, customer),
    pending: pending ? { email: pending.email, expiresAt: pending.expiresAt.toISOString() } : null,
  }
}

/**
 * Support starts the move for a customer who lost their old mailbox (and so cannot ask on My Account with a proof):
 * staff vouch for who is asking, the link still proves the new mailbox, and the old address is told at once, so a
 * person tricked out of their account by a false request has the link's hour to cancel it. Audited, with no address.
 * Staff see whether the new address has an account (they can look it up anyway), so a taken one is refused plainly.
 */
export async function startEmailChangeForCustomer(
  db: DB,
  staff: Actor,
  input: { customerId: string; newEmail: string },
  publicUrl: string,
) {
  const address = input.newEmail.trim()
  const customer = await accountForStaffAction(db, input.customerId)
  const refusal = await staffEmailChangeRefusal(db, customer)
  if (refusal) throw new DomainError('forbidden', refusal)
  if (normaliseEmail(address) === normaliseEmail(customer.email)) {
    throw new DomainError('invalid', STAFF_EMAIL_CHANGE_MESSAGES.sameAddress, { field: 'newEmail' })
  }
  if (await findUserByEmail(db, address)) {
    throw new DomainError('conflict', STAFF_EMAIL_CHANGE_MESSAGES.taken, { field: 'newEmail' })
  }
  await inTransaction(db, async (trx) => {
    const token = await issueEmailChangeToken(trx, customer.id, address)
    await enqueueMail(trx, emailChangeByStaffMail(address, publicUrl, token))
    await enqueueMail(trx, emailChangeStartedNotice(customer.email, address, publicUrl))
    await record(trx, staff, 'customer.email_change_started', { type: 'user', id: customer.id })
  })
  // The page shows the new state from the answer: reading the customer again would log another look-up.
  return {
    message: STAFF_EMAIL_CHANGE_MESSAGES.sent(address),
    emailChange: await customerEmailChangeStatus(db, customer),
  }
}

/** Support ends the link waiting at the new address (a mistyped address, a caller who was not the customer). */
export async function cancelEmailChangeForCustomer(db: DB, staff: Actor, customerId: string) {
  const customer = await accountForStaffAction(db, customerId)
  await inTransaction(db, async (trx) => {
    if (!(await pendingEmailChange(trx, customer.id))) {
      throw new DomainError('conflict', STAFF_EMAIL_CHANGE_MESSAGES.nothingWaiting)
    }
    await deletePendingTokens(trx, customer.id, 'change_email')
    await record(trx, staff, 'customer.email_change_cancelled', { type: 'user', id: customer.id })
  })
  return { message: STAFF_EMAIL_CHANGE_MESSAGES.cancelled, emailChange: await customerEmailChangeStatus(db, customer) }
}

/**
 * Uses a change link: the account takes the address (verified: the link proved it), the links and codes mailed to the
 * old address stop working, and the old address is told. Refused, nothing is used up: a link refused because a school
 * now vouches for the address, or because the address was taken meanwhile, stays as it was.
 */
export async function confirmEmailChange(db: DB, token: string, publicUrl: string) {
  try {
    return await inTransaction(db, async (trx) => {
      const change = await consumeEmailChangeToken(trx, token)
      if (!change) throw new DomainError('invalid', EMAIL_CHANGE_MESSAGES.badLink)
      const refusal = await emailChangeRefusal(trx, change.userId)
      if (refusal) throw new DomainError('forbidden', refusal)
      const owner = await findUserByEmail(trx, change.newEmail)
      if (owner && owner.id !== change.userId) throw new DomainError('conflict', EMAIL_CHANGE_MESSAGES.taken)
      const before = await loadMe(trx, change.userId)
      if (!before) throw new DomainError('invalid', EMAIL_CHANGE_MESSAGES.badLink)
      await trx
        .updateTable('users')
        .set({
          email: change.newEmail,
          email_verified: true,
          updated_at: clock.now(),
          stripe_email_due_at: clock.now(),
        })
        .where('id', '=', change.userId)
        .execute()
      // Reset links and codes went to the old mailbox: whoever reads it from now on must not use them.
      for (const purpose of ['reset_password', 'verify_email', 'confirm_action'] as const) {
        await deletePendingTokens(trx, change.userId, purpose)
      }
      await enqueueMail(trx, emailChangedNotice(before.email, change.newEmail, publicUrl))
      // Gifts for the address it proved follow it (decision 0163); an address never proved gives nothing away.
      if (before.emailVerified) await followMovedAccount(trx, change.userId, before.email)
      // The new address may be one a school's required sign-in holds (its proven domain, a team the person is on):
      // the sessions made another way end, as when the hold starts any other way (decision 0152).
      const school = await schoolRequiringSsoOf(trx, change.userId)
      if (school) await endSessionsHeldToSso(trx, school.id, { userId: change.userId })
      return {
        message:
          EMAIL_CHANGE_MESSAGES.done(change.newEmail) + (school ? EMAIL_CHANGE_MESSAGES.nowHeld(school.name) : ''),
      }
    })
  } catch (error) {
    // Two accounts moving to one address at once: the unique index lets one through.
    if (isUniqueViolation(error)) {
      throw new DomainError('conflict', EMAIL_CHANGE_MESSAGES.taken)
    }
    throw error
  }
}

/**
 * Gives the Stripe customers of moved accounts' plans the new address (Stripe's own mails about their invoices and the
 * customer portal use it): after the move has committed, so a Stripe outage never holds it back. A customer Stripe no
 * longer knows counts as done; a failing call leaves the account for the next run; an account that moved again
 * meanwhile stays due for its newer address. Without Stripe configured, accounts with customers wait.
 */
export async function syncStripeCustomerEmails(deps: {
  db: DB
  stripe: StripeApi | null
  log: { error: (entry: object, message: string) => void }
}) {
  const due = await deps.db
    .selectFrom('users')
    .select(['id', 'email', 'stripe_email_due_at'])
    .where('stripe_email_due_at', 'is not', null)
    .orderBy('stripe_email_due_at')
    .limit(200)
    .execute()
  let updated = 0
  let failed = 0
  for (const user of due) {
    const customers = await stripeCustomersOf(deps.db, user.id)
    if (customers.length > 0 && !deps.stripe) continue
    try {
      for (const customerId of customers) {
        if ((await deps.stripe!.updateCustomerEmail(customerId, user.email)) === 'updated') updated += 1
      }
      await deps.db
        .updateTable('users')
        .set({ stripe_email_due_at: null })
        .where('id', '=', user.id)
        .where('stripe_email_due_at', '=', user.stripe_email_due_at)
        .execute()
    } catch (error) {
      failed += 1
      // The error names no secret: the SDK's message and Stripe's request id.
      deps.log.error(
        { err: error, userId: user.id },
        'giving the Stripe customer the new address failed; the next run retries it',
      )
    }
  }
  return { updated, failed }
}
