// Single sign-on per school with OpenID Connect (issue 36, decision 0062). The owner (only, on a plan with 'sso')
// names the provider, the e-mail domains it may sign in and whether members must use it; learners sign in with their
// company identity at /auth/sso/{slug}; accounts are linked by a verified e-mail only, and made (or linked by the
// provider's word) only in a domain the school proved by DNS (decision 0091); members of a school that
// requires SSO cannot sign in with a password. An account that exists already and that the school may not claim is
// linked on its owner's consent only: signed in, with a fresh proof (the consent page, /account/sso-link).
import type { SchoolSsoInput } from '../../src-shared/schemas/sso.ts'
import { type ActionProof, confirmAction } from '../auth/confirm-action.ts'
import {
  discover,
  IssuerMismatch,
  issuerAllowed,
  issuerIsPrivateLiteral,
  PRIVATE_ISSUER_MESSAGE,
  SsoFailure,
  type SsoIdentity,
} from '../auth/oidc.ts'
import { accountWithEmail } from '../auth/proven-email.ts'
import {
  dropSchoolSignIns,
  linkedSchoolIds,
  linkOrCreateSsoUser,
  linkPendingIdentity,
  pendingLinkOf,
  SSO_DOMAIN_UNPROVEN,
  unlinkSchool,
} from '../auth/sso-links.ts'
import { twoFactorSettings } from '../auth/two-factor.ts'
import {
  deleteSchoolSso,
  putSchoolSso,
  type SchoolSsoSettings,
  schoolSsoSettings,
  sealedSsoSecretOf,
} from '../creators/school-sso.ts'
import { schoolById, schoolBySlug } from '../creators/schools.ts'
import {
  domainProvenElsewhere,
  SSO_DOMAIN_PROVEN_ELSEWHERE,
  schoolProvesEmailDomain,
  syncSsoDomainProofs,
} from '../creators/sso-domain-proofs.ts'
import type { AppConfig } from '../kernel/config.ts'
import type { DB } from '../kernel/db.ts'
import { DomainError } from '../kernel/errors.ts'
import { openText, sealText } from '../kernel/seal.ts'
import { enqueueMail } from '../mail/outbox.ts'
import { assertPlanIncludes, creatorStanding } from './creator-standing.ts'
import { schoolForHost, siteUrlForHost, siteUrlForSchool } from './school-domain.ts'
import { ownSchool } from './school-team.ts'
import { domainOf, endSessionsHeldToSso, signInName } from './sso-hold.ts'

export const SSO_CALLBACK_PATH = '/auth/sso/callback'

const SSO_NOT_OFFERED = 'this school does not offer single sign-on'

const PRIVATE_ISSUER_REFUSAL =
  'The issuer must be on the public internet: private, loopback and link-local addresses are refused'

export const ssoRedirectUri = (config: AppConfig) => `${config.publicUrl}${SSO_CALLBACK_PATH}`

/**
 * The origin a school's sign-in runs on when it starts (or returns) under `host`: the school's own verified domain when
 * the request came on it, so the flow's cookie, the provider's return and the session all stay on that site (sessions
 * are their site's alone); PUBLIC_URL on the platform's host; null under another school's domain, which sends the
 * browser to the platform's host first.
 */
export async function ssoSiteUrl(
  db: DB,
  config: AppConfig,
  schoolId: string,
  host: string | undefined,
): Promise<string | null> {
  const site = await siteUrlForHost(db, config.publicUrl, host)
  if (site === config.publicUrl) return site
  return (await schoolForHost(db, host ?? ''))?.schoolId === schoolId ? site : null
}

/** The owner's SSO page: the settings without the secret (only whether one is stored) and what to register. */
export async function ssoPanel(db: DB, userId: string, config: AppConfig) {
  const school = await ownSchool(db, userId)
  const [settings, standing] = await Promise.all([
    schoolSsoSettings(db, school.id),
    creatorStanding(db, userId, config.creatorLimits),
  ])
  let planIncludesSso = true
  try {
    await assertPlanIncludes(db, school.ownerId, 'sso')
  } catch {
    planIncludesSso = false
  }
  const site = await siteUrlForSchool(db, config.publicUrl, school.id)
  return {
    school: { name: school.name, slug: school.slug },
    planName: standing.planName,
    planIncludesSso,
    redirectUri: ssoRedirectUri(config),
    /** The school's own domain's return address, registered too when the school signs in there (null: no domain). */
    domainRedirectUri: site === config.publicUrl ? null : `${site}${SSO_CALLBACK_PATH}`,
    settings: settings
      ? {
          issuer: settings.issuer,
          clientId: settings.clientId,
          hasClientSecret: true,
          domains: settings.domains,
          enabled: settings.enabled,
          requireForMembers: settings.requireForMembers,
        }
      : null,
  }
}

/** Saves the owner's SSO settings after checking the plan, the issuer (it must answer discovery) and the domains. */
export async function saveSsoSettings(db: DB, userId: string, input: SchoolSsoInput, config: AppConfig) {
  const school = await ownSchool(db, userId)
  await assertPlanIncludes(db, school.ownerId, 'sso')
  if (!issuerAllowed(input.issuer, config.ssoHttpIssuers)) {
    throw new DomainError('invalid', 'The issuer must be an https address', { field: 'issuer' })
  }
  if (issuerIsPrivateLiteral(input.issuer, config.ssoHttpIssuers)) {
    throw new DomainError('invalid', PRIVATE_ISSUER_REFUSAL, { field: 'issuer' })
  }
  const existing = await sealedSsoSecretOf(db, school.id)
  if (!existing && !input.clientSecret) {
    throw new DomainError('invalid', 'Enter the client secret', { field: 'clientSecret' })
  }
  // One school per e-mail domain counts proofs, not listings (decision 0091): a domain another school only listed is
  // not held (its real owner proves it; a squatter cannot); one another school has proven is refused here at once.
  const proven = await domainProvenElsewhere(db, school.id, input.domains)
  if (proven) throw new DomainError('conflict', SSO_DOMAIN_PROVEN_ELSEWHERE(proven), { field: 'domains' })
  const secret = input.clientSecret || openText(existing ?? '', config.twoFactorKey)
  if (input.enabled) {
    try {
      await discover({
        issuer: input.issuer,
        clientId: input.clientId,
        clientSecret: secret,
        redirectUri: ssoRedirectUri(config),
        allowHttp: config.ssoHttpIssuers,
      })
    } catch (error) {
      if (error instanceof SsoFailure && error.message === PRIVATE_ISSUER_MESSAGE) {
        throw new DomainError('invalid', PRIVATE_ISSUER_REFUSAL, { field: 'issuer' })
      }
      // It answered, naming itself otherwise: "did not answer" would send the owner looking for an outage.
      if (error instanceof IssuerMismatch) {
        throw new DomainError(
          'invalid',
          `The issuer answered OpenID Connect discovery but names itself differently: expected ${error.expected}, got ${error.got}. Enter the issuer exactly as your provider gives it.`,
          { field: 'issuer' },
        )
      }
      throw new DomainError('invalid', 'The issuer did not answer OpenID Connect discovery', { field: 'issuer' })
    }
  }
  const before = await schoolSsoSettings(db, school.id)
  await db.transaction().execute(async (trx) => {
    await putSchoolSso(trx, {
      schoolId: school.id,
      issuer: input.issuer,
      clientId: input.clientId,
      domains: input.domains,
      enabled: input.enabled,
      requireForMembers: input.requireForMembers,
      sealedSecret: input.clientSecret ? sealText(input.clientSecret, config.twoFactorKey) : null,
    })
    // Each allowed domain gets its own DNS proof (a new one a new token; one still listed keeps its proof).
    await syncSsoDomainProofs(trx, school.id, input.domains)
    // Switched on: the sessions its members made another way end with the same commit.
    if (input.enabled && input.requireForMembers && !(before?.enabled && before.requireForMembers)) {
      await endSessionsHeldToSso(trx, school.id)
    }
  })
  return ssoPanel(db, userId, config)
}

/**
 * "Remove single sign-on" (decision 0144): the settings and the stored client secret, every e-mail domain's proof (which
 * frees the domain for another school) and the accounts' links to the school's provider go, in one transaction. With no
 * settings nobody is held to the school's sign-in, so its members sign in as anyone else again; no session ends and no
 * account changes (an account made through the school's sign-in has no password: "Forgot password" gives it one).
 * The owner's own school only; no plan needed, so a school whose plan lapsed can still take its secret away.
 */
export async function removeSsoSettings(db: DB, userId: string, config: AppConfig) {
  const school = await ownSchool(db, userId)
  await db.transaction().execute(async (trx) => {
    if (!(await deleteSchoolSso(trx, school.id))) {
      throw new DomainError('not_found', 'This school has no single sign-on to remove')
    }
    await syncSsoDomainProofs(trx, school.id, [])
    await dropSchoolSignIns(trx, school.id)
  })
  return ssoPanel(db, userId, config)
}

/** The sign-in button's look-up: the school's name when its SSO is on (and its plan still includes it). */
export async function ssoForSlug(db: DB, slug: string) {
  const school = await schoolBySlug(db, slug)
  if (!school) return null
  const settings = await schoolSsoSettings(db, school.id)
  if (!settings?.enabled) return null
  try {
    await assertPlanIncludes(db, school.ownerId, 'sso')
  } catch {
    return null
  }
  return { name: await signInName(db, school), slug: school.slug }
}

/** The single sign-on of the school whose own domain the request came on (its log-in page offers it), else null. */
export async function ssoForHost(db: DB, config: AppConfig, host: string | undefined) {
  if ((await siteUrlForHost(db, config.publicUrl, host)) === config.publicUrl) return null
  const school = await schoolForHost(db, host ?? '')
  return school ? ssoForSlug(db, school.slug) : null
}

/** A school whose sign-in may start or finish now, with its provider's settings and secret. */
export async function usableSso(db: DB, config: AppConfig, by: { slug: string } | { schoolId: string }) {
  const school = 'slug' in by ? await schoolBySlug(db, by.slug) : await schoolById(db, by.schoolId)
  const settings = school ? await schoolSsoSettings(db, school.id) : null
  const sealed = school ? await sealedSsoSecretOf(db, school.id) : null
  if (!school || !settings?.enabled || !sealed) throw new SsoFailure('sso_not_offered', SSO_NOT_OFFERED)
  try {
    await assertPlanIncludes(db, school.ownerId, 'sso')
  } catch {
    throw new SsoFailure('sso_not_offered', SSO_NOT_OFFERED)
  }
  return {
    school,
    settings,
    client: {
      issuer: settings.issuer,
      clientId: settings.clientId,
      clientSecret: openText(sealed, config.twoFactorKey),
      redirectUri: ssoRedirectUri(config),
      allowHttp: config.ssoHttpIssuers,
    },
  }
}

/**
 * The local account for a provider's identity: verified e-mail in an allowed domain, then its earlier link, else the
 * account with that address (linked when the domain is proven), else a new account (made when the domain is proven).
 */
export async function accountForSsoIdentity(db: DB, settings: SchoolSsoSettings, identity: SsoIdentity) {
  if (!identity.subject) throw new SsoFailure('sso_provider_error', 'the identity provider sent no account id')
  if (!identity.email || identity.email.indexOf('@') < 1) {
    throw new SsoFailure('sso_provider_error', 'the identity provider gave no e-mail address')
  }
  if (!identity.emailVerified) {
    throw new SsoFailure('email_unverified', 'your e-mail address is not verified by the identity provider')
  }
  if (!settings.domains.includes(domainOf(identity.email))) {
    throw new SsoFailure(
      'sso_domain_not_allowed',
      `addresses at ${domainOf(identity.email)} cannot sign in through this school`,
    )
  }
  // A domain another school has proven is that school's to sign in (this one may have listed it before the proof).
  if (await domainProvenElsewhere(db, settings.schoolId, [domainOf(identity.email)])) {
    throw new SsoFailure(
      'sso_domain_elsewhere',
      `addresses at ${domainOf(identity.email)} sign in through another school`,
    )
  }
  // An existing account is linked, and a new one made, only when the school proved this exact domain by DNS (its TXT
  // proof, verified and not lapsed): otherwise a school's own provider could claim anyone's account — its team
  // members' included (a member's whole account, their own courses and school, is not the school's to hand out) — or
  // mint "verified" accounts for a domain it merely listed, squatting addresses whose owners never signed up. A
  // verified name under the domain (a custom domain such as learn.acme.com) proves nothing about acme.com's mailboxes:
  // that sub-zone may be delegated to someone else. An identity linked before keeps signing in (decision 0091).
  const domain = domainOf(identity.email)
  const proven = (trx: DB) => schoolProvesEmailDomain(trx, settings.schoolId, domain)
  return linkOrCreateSsoUser(
    db,
    settings.schoolId,
    { ...identity, email: identity.email },
    {
      mayLinkExisting: proven,
      newAccountRefusal: async (trx) => ((await proven(trx)) ? null : SSO_DOMAIN_UNPROVEN(domain)),
    },
  )
}

export const SSO_LINK_MAIL_KIND = 'sso-linked'
export const SSO_LINK_MESSAGES = {
  nothingWaiting: 'No school sign-in is waiting to be linked: it may have expired. Sign in with the school again.',
  addressChanged: 'Your e-mail address is no longer the one the school’s sign-in gave: nothing was linked.',
  notLinked: 'That school’s sign-in is not linked to your account.',
} as const

/** The sign-in waiting for this session's consent: the school's name and the address its provider gave. */
export async function pendingSsoLink(db: DB, sessionId: string, userId: string) {
  const pending = await pendingLinkOf(db, sessionId, userId)
  const school = pending ? await schoolById(db, pending.school_id) : null
  if (!pending || !school) return null
  return { schoolName: school.name, email: pending.email }
}

/**
 * Links the waiting sign-in after a fresh proof (the password, an app code, or an e-mailed code): from then on the
 * school's administrators, who run its provider, can sign in as this account, so a stolen session alone must not be
 * able to grant that. The account is told by e-mail.
 */
export async function confirmSsoLink(
  db: DB,
  config: AppConfig,
  who: { sessionId: string; userId: string },
  proof: ActionProof,
  passwordHere = true,
) {
  const pending = await pendingLinkOf(db, who.sessionId, who.userId)
  if (!pending) throw new DomainError('precondition', SSO_LINK_MESSAGES.nothingWaiting)
  await confirmAction(db, who.userId, proof, twoFactorSettings(config), passwordHere)
  // The provider vouched for this address: the account must still use it.
  if ((await accountWithEmail(db, pending.email))?.id !== who.userId) {
    throw new DomainError('precondition', SSO_LINK_MESSAGES.addressChanged)
  }
  // Still a sign-in the school offers, for an address it allows.
  let school: Awaited<ReturnType<typeof usableSso>>
  try {
    school = await usableSso(db, config, { schoolId: pending.school_id })
  } catch (error) {
    if (error instanceof SsoFailure) throw new DomainError('precondition', `Nothing was linked: ${error.message}.`)
    throw error
  }
  if (!school.settings.domains.includes(domainOf(pending.email))) {
    throw new DomainError(
      'precondition',
      `Nothing was linked: ${domainOf(pending.email)} addresses cannot sign in there.`,
    )
  }
  let linked: Awaited<ReturnType<typeof linkPendingIdentity>>
  try {
    linked = await linkPendingIdentity(db, who.sessionId, who.userId)
  } catch (error) {
    if (error instanceof SsoFailure) throw new DomainError('conflict', `Nothing was linked: ${error.message}.`)
    throw error
  }
  if (!linked) throw new DomainError('precondition', SSO_LINK_MESSAGES.nothingWaiting)
  await enqueueMail(db, {
    kind: SSO_LINK_MAIL_KIND,
    to: pending.email,
    subject: `Your SkillForge account is linked to ${school.school.name}’s sign-in`,
    text: [
      `Your SkillForge account is now linked to ${school.school.name}’s single sign-on: you can sign in with it.`,
      '',
      `${school.school.name}’s administrators run that sign-in, so they can sign in to your account too.`,
      `If you did not do this, unlink it and change your password: ${config.publicUrl}/account/security`,
      '',
    ].join('\n'),
  })
  return { schoolName: school.school.name, redirect: linked.redirect }
}

/** The schools whose sign-in is linked to the account (the security page's list). */
export async function schoolSignIns(db: DB, userId: string) {
  const links = await linkedSchoolIds(db, userId)
  const seen = new Set<string>()
  const rows: { schoolId: string; schoolName: string; linkedAt: Date; lastUsedAt: Date }[] = []
  for (const link of links) {
    if (seen.has(link.school_id)) continue
    seen.add(link.school_id)
    const school = await schoolById(db, link.school_id)
    if (!school) continue
    rows.push({
      schoolId: school.id,
      schoolName: school.name,
      linkedAt: link.created_at,
      lastUsedAt: link.last_used_at,
    })
  }
  return rows
}

/** Ends the account's link to a school's sign-in; the password (or a reset) still signs in. */
export async function unlinkSchoolSignIn(db: DB, userId: string, schoolId: string) {
  if (!(await unlinkSchool(db, userId, schoolId))) throw new DomainError('not_found', SSO_LINK_MESSAGES.notLinked)
}
