// How a school's SSO identity becomes a local account (decision 0062): its earlier link (issuer + subject), else the
// account with the same e-mail — the provider must say the address is verified — else a new verified account. Staff
// accounts are never reached through a school's provider: a school owner runs that provider, not us.
import { isStaff } from '../../src-shared/roles.ts'
import * as clock from '../kernel/clock.ts'
import type { DB } from '../kernel/db.ts'
import { SsoFailure, type SsoIdentity } from './oidc.ts'
import { accountWithEmail, trustProvenOwner } from './proven-email.ts'

export const SSO_STAFF_REFUSED = 'staff accounts sign in on the staff log-in page, not through a school'
export const SSO_EXISTING_REFUSED =
  'an account with this address already exists: sign in with its password (this school cannot link it)'

export interface LinkRules {
  /**
   * Whether an account that exists already (and is not yet linked) may be linked: a school's owner runs its provider,
   * so a provider's word alone must not hand it someone's account (decision 0062). Asked inside the transaction
   * (`trx`: PGlite has one connection).
   */
  mayLinkExisting(trx: DB, userId: string): Promise<boolean>
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
      if (isStaff(linked.role)) throw new SsoFailure(SSO_STAFF_REFUSED)
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
    if (user && isStaff(user.role)) throw new SsoFailure(SSO_STAFF_REFUSED)
    if (user && !(await rules.mayLinkExisting(trx, user.id))) throw new SsoFailure(SSO_EXISTING_REFUSED)
    if (user) await trustProvenOwner(trx, user)
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
