// "Require single sign-on" (decisions 0062, 0130): which school holds an account to its own sign-in, the refusal every
// other way in gives, and ending the sessions such an account made another way — when the owner switches it on, a
// domain is proven, or someone joins the team already held (decision 0144). Its own module: the team's flows (joining)
// and the SSO settings' flows both need it, and school-sso.ts already needs the team's.
import { endAllSignIns } from '../auth/end-sign-ins.ts'
import { lockAccountForSignIn } from '../auth/sign-in-lock.ts'
import { schoolSsoSettings, schoolsRequiringSsoFor } from '../creators/school-sso.ts'
import { schoolMembers } from '../creators/school-team.ts'
import { schoolById } from '../creators/schools.ts'
import { schoolProvesEmailDomain } from '../creators/sso-domain-proofs.ts'
import { type DB, inTransaction } from '../kernel/db.ts'
import { DomainError } from '../kernel/errors.ts'
import { userContact } from '../users/contact.ts'
import { lockTeamSeats, ownerPlanIncludes } from './creator-standing.ts'
import { liveBrand } from './school-domain.ts'

export function domainOf(email: string): string {
  return email.slice(email.lastIndexOf('@') + 1).toLowerCase()
}

interface SchoolHoldingToSso {
  id: string
  name: string
  slug: string
  ownerId: string
}

/**
 * Whether the school's "Require SSO" holds a member with this address: only when the address is in a domain the school
 * proved by DNS — a school governs the accounts of its own domain, not a member's personal one (which its provider may
 * not sign in either) — and while the owner's plan includes SSO: once it no longer does the school's sign-in is gone
 * (ssoForSlug, usableSso), and holding its members to it would lock them out. The owner is never held.
 */
async function holdsToSso(db: DB, school: SchoolHoldingToSso, userId: string, email: string): Promise<boolean> {
  if (userId === school.ownerId) return false
  if (!(await schoolProvesEmailDomain(db, school.id, domainOf(email)))) return false
  return ownerPlanIncludes(db, school.ownerId, 'sso')
}

/**
 * The name a school's sign-in goes by ("Sign in with …", the refusals that point to it): its brand's while white label
 * is live, as its pages, header and the hand-off page name it (decision 0143), else the school's own.
 */
export async function signInName(db: DB, school: { id: string; name: string; ownerId: string }): Promise<string> {
  return (await liveBrand(db, { schoolId: school.id, ownerId: school.ownerId }))?.displayName ?? school.name
}

/**
 * The school whose required single sign-on is the account's only way in, or null (see holdsToSso); its `name` is the
 * one its sign-in button shows (signInName).
 */
export async function schoolRequiringSsoOf(db: DB, userId: string): Promise<SchoolHoldingToSso | null> {
  const user = await userContact(db, userId)
  if (!user) return null
  for (const school of await schoolsRequiringSsoFor(db, userId)) {
    if (await holdsToSso(db, school, userId, user.email)) return { ...school, name: await signInName(db, school) }
  }
  return null
}

/** Whether this school's required sign-in holds this member (one school's answer of schoolRequiringSsoOf). */
export async function schoolHoldsMember(db: DB, schoolId: string, userId: string): Promise<boolean> {
  const [user, holding] = await Promise.all([userContact(db, userId), schoolsRequiringSsoFor(db, userId)])
  const school = holding.find((one) => one.id === schoolId)
  return Boolean(user && school && (await holdsToSso(db, school, userId, user.email)))
}

/**
 * The refusal: where to sign in (the school's sign-in button comes with it: the error's ssoSchool, the page's link,
 * decision 0143), and whom to ask when that sign-in is closed to them (their provider account disabled): the school's
 * owner, who may remove them from the team, which ends the hold (or they leave the team, signed in through the
 * school). Given only after the account was proven (password, passkey), so naming the owner's address tells no
 * stranger anything.
 */
export const SSO_REQUIRED_MESSAGE = (school: { name: string }, ownerEmail?: string) =>
  `${school.name} requires its members to sign in with single sign-on: use “Sign in with ${school.name}”. ` +
  `If you cannot sign in there, ask the school’s owner${ownerEmail ? ` (${ownerEmail})` : ''} to remove you from its team.`

/**
 * Refuses every way in but the school's own sign-in (its callback, http/school-sso.ts, is the only caller that skips
 * this) to a member the school holds to it: the password, a passkey, Google or Facebook. Checked where each way
 * proves the account, before any session or pending log-in is made.
 */
export async function assertSignInAllowed(db: DB, userId: string): Promise<void> {
  const school = await schoolRequiringSsoOf(db, userId)
  if (!school) return
  const owner = await userContact(db, school.ownerId)
  throw new DomainError('forbidden', SSO_REQUIRED_MESSAGE(school, owner?.email), { ssoSchool: school.slug })
}

/**
 * A sign-in by a way in that the school's required sign-on refuses (the password, a passkey, Google or Facebook):
 * checks the hold (assertSignInAllowed) and runs `start` (the session or pending log-in) in one transaction, under the
 * account's sign-in lock that endSessionsHeldToSso takes too, so a join or a switch of the requirement racing it is
 * seen by one side or the other: the sign-in is refused, or the session it made is ended (decision 0152).
 */
export function signInUnlessHeld<T>(db: DB, userId: string, start: (trx: DB) => Promise<T>): Promise<T> {
  return inTransaction(db, async (trx) => {
    await lockAccountForSignIn(trx, userId)
    await assertSignInAllowed(trx, userId)
    return start(trx)
  })
}

/**
 * Why this account may not add a passkey, or null: a school holds it to its single sign-on, and a passkey (a way in of
 * the account's own: it signs in alone) could not sign in while the requirement holds (assertSignInAllowed). The page
 * shows it in place of the form; the procedures refuse with it. A second factor is not refused: it signs in nobody
 * alone, and the school's sign-in asks for it too.
 */
export async function passkeyRefusal(db: DB, userId: string): Promise<string | null> {
  const school = await schoolRequiringSsoOf(db, userId)
  return school
    ? `${school.name} requires its members to sign in with single sign-on, so this account cannot add a passkey`
    : null
}

export async function assertMayAddPasskey(db: DB, userId: string): Promise<void> {
  const refusal = await passkeyRefusal(db, userId)
  if (refusal) throw new DomainError('forbidden', refusal)
}

/**
 * Ends the sessions, half-finished log-ins and unused school-domain hand-off codes of the members the school now
 * holds to its sign-in (all; those at `only.domain` when one domain was just proven; `only.userId` when that person
 * just joined): they were made by the password, a passkey or Google before, and must not outlive the requirement.
 * Members sign in again through the school. The owner is never held, so their session stays. Returns the ids of the people whose sessions ended.
 */
export async function endSessionsHeldToSso(
  db: DB,
  schoolId: string,
  only: { domain?: string; userId?: string } = {},
): Promise<string[]> {
  const [settings, school] = await Promise.all([schoolSsoSettings(db, schoolId), schoolById(db, schoolId)])
  if (!settings?.enabled || !settings.requireForMembers || !school) return []
  // Under the owner's team lock, which an acceptance holds from before its join to its commit (acceptInvite): a join
  // racing the requirement's switch (or a domain's proof) is then seen by one side or the other. Without it each
  // transaction could miss the other's uncommitted write, and the joiner's password sessions outlive the requirement.
  await lockTeamSeats(db, school.ownerId)
  const ended: string[] = []
  for (const member of await schoolMembers(db, schoolId)) {
    if (only.domain && domainOf(member.email) !== only.domain) continue
    if (only.userId && member.id !== only.userId) continue
    if (!(await holdsToSso(db, school, member.id, member.email))) continue
    // A sign-in under way (signInUnlessHeld) finishes first, and its session is ended here; the next waits for the
    // commit and is refused.
    await endAllSignIns(db, member.id)
    ended.push(member.id)
  }
  return ended
}
