// How a school's SSO identity becomes a local account (decision 0062): its earlier link (issuer + subject), else the
// account with the same e-mail — the provider must say the address is verified — else a new verified account, only
// for an e-mail domain the school has proven (decision 0091). Staff accounts are never reached through a school's
// provider: a school owner runs that provider, not us.
// An existing account the school may not claim on its provider's word is linked only on its owner's consent: the
// identity is held for the signed-in browser session that met it (school_sso_pending_links) until the owner confirms.
import { isStaff } from '../../src-shared/roles.ts'
import * as clock from '../kernel/clock.ts'
import type { DB } from '../kernel/db.ts'
import { SsoFailure, type SsoIdentity } from './oidc.ts'
import { accountWithEmail, trustProvenOwner } from './proven-email.ts'

export const SSO_STAFF_REFUSED = 'staff accounts sign in on the staff log-in page, not through a school'
export const SSO_EXISTING_REFUSED =
  'an account with this address already exists: sign in with its password first, then use this sign-in again to link the two'
export const SSO_LINKED_ELSEWHERE = 'this sign-in is linked to another account'
/** A new account for an address in a domain the school has not proven (or whose proof lapsed). */
export const SSO_DOMAIN_UNPROVEN = (domain: string) => `this school has not verified the e-mail domain ${domain} yet`
/** How long a sign-in waits for its account's consent. */
export const PENDING_LINK_TTL_MS = 10 * 60 * 1000

/** The identity belongs to an account that exists already, which only its owner may link (signed in, on consent). */
export class SsoConsentNeeded extends SsoFailure {
  constructor(readonly userId: string) {
    super('sso_existing_account', SSO_EXISTING_REFUSED)
  }
}

export interface LinkRules {
  /**
   * Whether an account that exists already (and is not yet linked) may be linked: a school's owner runs its provider,
   * so a provider's word alone must not hand it someone's account (decision 0062). Asked inside the transaction
   * (`trx`: PGlite has one connection).
   */
  mayLinkExisting(trx: DB, userId: string): Promise<boolean>
  /**
   * Whether a new (verified, passwordless) account may be made for the identity's address: only in a domain the school
   * has proven, else a school listing someone else's domain would mint "verified" accounts that squat its addresses.
   * Null: it may; else the reason it may not (nothing is written then). Asked inside the transaction, as above.
   */
  newAccountRefusal(trx: DB): Promise<string | null>
}

export async function linkOrCreateSsoUser(
  db: DB,
  schoolId: string,
  identity: SsoIdentity & { email: string },
  rules: LinkRules,
) {
  return db.transaction().execute(async (trx) => {
    const linked = await trx
      .selectFrom('school_sso_links as l')
      .innerJoin('users', 'users.id', 'l.user_id')
      .select(['users.id', 'users.role'])
      .where('l.school_id', '=', schoolId)
      .where('l.issuer', '=', identity.issuer)
      .where('l.subject', '=', identity.subject)
      .executeTakeFirst()
    if (linked) {
      if (isStaff(linked.role)) throw new SsoFailure('sso_staff', SSO_STAFF_REFUSED)
      await trx
        .updateTable('school_sso_links')
        .set({ last_used_at: clock.now() })
        .where('school_id', '=', schoolId)
        .where('issuer', '=', identity.issuer)
        .where('subject', '=', identity.subject)
        .execute()
      return { id: linked.id, created: false }
    }
    let user = await accountWithEmail(trx, identity.email)
    if (user && isStaff(user.role)) throw new SsoFailure('sso_staff', SSO_STAFF_REFUSED)
    if (user && !(await rules.mayLinkExisting(trx, user.id))) throw new SsoConsentNeeded(user.id)
    if (user) await trustProvenOwner(trx, user)
    const refusal = user ? null : await rules.newAccountRefusal(trx)
    if (refusal) throw new SsoFailure('sso_domain_unproven', refusal)
    const created = !user
    user ??= await trx
      .insertInto('users')
      .values({
        email: identity.email,
        email_verified: true,
        first_name: identity.firstName,
        last_name: identity.lastName,
      })
      .returning(['id', 'role', 'email_verified'])
      .executeTakeFirstOrThrow()
    await trx
      .insertInto('school_sso_links')
      .values({ school_id: schoolId, issuer: identity.issuer, subject: identity.subject, user_id: user.id })
      .execute()
    return { id: user.id, created }
  })
}

export interface PendingIdentity {
  schoolId: string
  issuer: string
  subject: string
  email: string
  redirect: string
}

/** Holds the identity for this session's consent (one at a time per session); drops the account's expired ones. */
export async function holdPendingLink(db: DB, sessionId: string, userId: string, identity: PendingIdentity) {
  const now = clock.now()
  await db.transaction().execute(async (trx) => {
    await trx
      .deleteFrom('school_sso_pending_links')
      .where((eb) => eb.or([eb('session_id', '=', sessionId), eb('expires_at', '<=', now)]))
      .execute()
    await trx
      .insertInto('school_sso_pending_links')
      .values({
        session_id: sessionId,
        user_id: userId,
        school_id: identity.schoolId,
        issuer: identity.issuer,
        subject: identity.subject,
        email: identity.email,
        redirect: identity.redirect,
        expires_at: new Date(now.getTime() + PENDING_LINK_TTL_MS),
      })
      .execute()
  })
}

/** The identity waiting for this session's consent, if it has not expired. */
export function pendingLinkOf(db: DB, sessionId: string, userId: string) {
  return db
    .selectFrom('school_sso_pending_links')
    .select(['school_id', 'issuer', 'subject', 'email', 'redirect'])
    .where('session_id', '=', sessionId)
    .where('user_id', '=', userId)
    .where('expires_at', '>', clock.now())
    .executeTakeFirst()
}

export async function dropPendingLink(db: DB, sessionId: string) {
  await db.deleteFrom('school_sso_pending_links').where('session_id', '=', sessionId).execute()
}

/**
 * Links the session's waiting identity to its account, once: the pending row is taken in the same transaction, so
 * two confirmations cannot both link. Null when nothing (or nothing unexpired) waits.
 */
export async function linkPendingIdentity(db: DB, sessionId: string, userId: string) {
  return db.transaction().execute(async (trx) => {
    const pending = await trx
      .deleteFrom('school_sso_pending_links')
      .where('session_id', '=', sessionId)
      .where('user_id', '=', userId)
      .returning(['school_id', 'issuer', 'subject', 'redirect', 'expires_at'])
      .executeTakeFirst()
    if (!pending || pending.expires_at <= clock.now()) return null
    const user = await trx.selectFrom('users').select('role').where('id', '=', userId).executeTakeFirstOrThrow()
    if (isStaff(user.role)) throw new SsoFailure('sso_staff', SSO_STAFF_REFUSED)
    const inserted = await trx
      .insertInto('school_sso_links')
      .values({ school_id: pending.school_id, issuer: pending.issuer, subject: pending.subject, user_id: userId })
      .onConflict((oc) => oc.columns(['school_id', 'issuer', 'subject']).doNothing())
      .returning('user_id')
      .executeTakeFirst()
    if (!inserted) {
      const existing = await trx
        .selectFrom('school_sso_links')
        .select('user_id')
        .where('school_id', '=', pending.school_id)
        .where('issuer', '=', pending.issuer)
        .where('subject', '=', pending.subject)
        .executeTakeFirst()
      if (existing?.user_id !== userId) throw new SsoFailure('sso_linked_elsewhere', SSO_LINKED_ELSEWHERE)
    }
    return { schoolId: pending.school_id, redirect: pending.redirect }
  })
}

/** The schools whose sign-in is linked to the account, for the security page. */
export function linkedSchoolIds(db: DB, userId: string) {
  return db
    .selectFrom('school_sso_links')
    .select(['school_id', 'created_at', 'last_used_at'])
    .where('user_id', '=', userId)
    .orderBy('created_at')
    .execute()
}

/** Ends the link between the account and a school's sign-in; true when there was one. */
export async function unlinkSchool(db: DB, userId: string, schoolId: string): Promise<boolean> {
  const removed = await db
    .deleteFrom('school_sso_links')
    .where('user_id', '=', userId)
    .where('school_id', '=', schoolId)
    .executeTakeFirst()
  return Number(removed.numDeletedRows) > 0
}

/** The school removed its single sign-on (decision 0144): every account's link to it and every waiting sign-in go. */
export async function dropSchoolSignIns(db: DB, schoolId: string): Promise<void> {
  await db.deleteFrom('school_sso_pending_links').where('school_id', '=', schoolId).execute()
  await db.deleteFrom('school_sso_links').where('school_id', '=', schoolId).execute()
}
