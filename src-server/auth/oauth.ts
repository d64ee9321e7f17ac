// Google and Facebook sign-in with Arctic: the providers (built from env), their user profiles, and how a
// provider identity becomes a local account (an existing link, else the account with the same verified
// e-mail, else a new verified account).

import type { Facebook, Google } from 'arctic'
import { SIGN_IN_FAILURES, type SignInFailureCode } from '../../src-shared/sign-in-failures.ts'
import type { DB } from '../kernel/db.ts'
import { onFirstUse } from '../kernel/on-first-use.ts'
import { accountWithEmail, trustProvenOwner } from './proven-email.ts'

export const OAUTH_PROVIDERS = ['google', 'facebook'] as const
export type OAuthProvider = (typeof OAUTH_PROVIDERS)[number]
export const PROVIDER_LABEL: Record<OAuthProvider, string> = { google: 'Google', facebook: 'Facebook' }

export interface OAuthCredentials {
  google?: { clientId: string; clientSecret: string }
  facebook?: { clientId: string; clientSecret: string }
}

/** A refusal with the code the callback page shows words for (never the message: decision 0144); the message is ours. */
export class OAuthFailure extends Error {
  constructor(
    readonly code: SignInFailureCode,
    message: string = SIGN_IN_FAILURES[code],
  ) {
    super(message)
  }
}

export interface ProviderProfile {
  providerUserId: string
  email: string | null
  emailVerified: boolean
  firstName: string
  lastName: string
}

export type OAuthClient = { provider: 'google'; client: Google } | { provider: 'facebook'; client: Facebook }

/** Arctic, loaded by the first Google or Facebook sign-in: few requests are one (decision 0165). */
export const arctic = onFirstUse(() => import('arctic'))

export async function oauthClient(
  provider: OAuthProvider,
  credentials: OAuthCredentials,
  publicUrl: string,
): Promise<OAuthClient> {
  const config = credentials[provider]
  if (!config) throw new OAuthFailure('not_configured', `${PROVIDER_LABEL[provider]} sign-in is not configured`)
  const { Facebook, Google } = await arctic()
  const redirectUri = `${publicUrl}/auth/${provider}/callback`
  return provider === 'google'
    ? { provider, client: new Google(config.clientId, config.clientSecret, redirectUri) }
    : { provider, client: new Facebook(config.clientId, config.clientSecret, redirectUri) }
}

/** How long a call to the provider (the code's exchange, the profile) may take before the sign-in is refused. */
export const PROVIDER_TIMEOUT_MS = 10_000

/**
 * Exchanges the callback's code for tokens. Arctic's request takes no signal, so a provider that accepts the
 * connection and never answers is raced against the limit: the person hears "could not be reached" within it, not
 * after the HTTP client's five minutes.
 */
export async function exchangeCode(
  oauth: OAuthClient,
  code: string,
  verifier: string,
  timeoutMs = PROVIDER_TIMEOUT_MS,
) {
  let timer: NodeJS.Timeout | undefined
  const timedOut = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new OAuthFailure('unreachable', 'the provider could not be reached')), timeoutMs)
  })
  const exchange =
    oauth.provider === 'google'
      ? oauth.client.validateAuthorizationCode(code, verifier)
      : oauth.client.validateAuthorizationCode(code)
  try {
    return await Promise.race([exchange, timedOut])
  } finally {
    clearTimeout(timer)
  }
}

async function getJson(url: string, accessToken?: string): Promise<Record<string, unknown>> {
  const response = await fetch(url, {
    headers: accessToken ? { Authorization: `Bearer ${accessToken}` } : {},
    signal: AbortSignal.timeout(PROVIDER_TIMEOUT_MS),
  }).catch(() => {
    throw new OAuthFailure('unreachable', 'the provider could not be reached')
  })
  if (!response.ok)
    throw new OAuthFailure('provider_error', `the provider refused the profile request (${response.status})`)
  return (await response.json()) as Record<string, unknown>
}

const text = (value: unknown) => (typeof value === 'string' ? value.trim().slice(0, 80) : '')

export async function fetchProfile(provider: OAuthProvider, accessToken: string): Promise<ProviderProfile> {
  if (provider === 'google') {
    const info = await getJson('https://openidconnect.googleapis.com/v1/userinfo', accessToken)
    return {
      providerUserId: text(info.sub),
      email: text(info.email) || null,
      emailVerified: info.email_verified === true,
      firstName: text(info.given_name),
      lastName: text(info.family_name),
    }
  }
  const url = new URL('https://graph.facebook.com/me')
  url.searchParams.set('fields', 'id,email,first_name,last_name')
  url.searchParams.set('access_token', accessToken)
  const info = await getJson(url.toString())
  // Facebook only hands out addresses its users have confirmed.
  return {
    providerUserId: text(info.id),
    email: text(info.email) || null,
    emailVerified: Boolean(info.email),
    firstName: text(info.first_name),
    lastName: text(info.last_name),
  }
}

/**
 * The local user for a provider identity, linking or creating the account as needed. With `create: false`
 * (admin sign-in) an identity without an account is refused rather than given a new customer account.
 */
export async function linkOrCreateUser(
  db: DB,
  provider: OAuthProvider,
  profile: ProviderProfile,
  options: { create: boolean; refusal?: SignInFailureCode } = { create: true },
) {
  if (!profile.providerUserId) throw new OAuthFailure('provider_error', 'the provider sent no account id')
  return db.transaction().execute(async (trx) => {
    const linked = await trx
      .selectFrom('oauth_accounts')
      .innerJoin('users', 'users.id', 'oauth_accounts.user_id')
      .select(['users.id', 'users.role', 'users.email_verified'])
      .where('oauth_accounts.provider', '=', provider)
      .where('oauth_accounts.provider_user_id', '=', profile.providerUserId)
      .executeTakeFirst()
    if (linked) return { id: linked.id, role: linked.role, emailVerified: linked.email_verified }

    if (!profile.email || !profile.emailVerified) {
      throw new OAuthFailure(
        'email_unverified',
        `your ${PROVIDER_LABEL[provider]} account has no verified email address`,
      )
    }
    const email = profile.email
    let user = await accountWithEmail(trx, email)
    if (!user && !options.create)
      throw new OAuthFailure(options.refusal ?? 'not_staff', 'no account uses this email address')
    if (user) await trustProvenOwner(trx, user)
    user ??= await trx
      .insertInto('users')
      .values({ email, email_verified: true, first_name: profile.firstName, last_name: profile.lastName })
      .returning(['id', 'role', 'email_verified'])
      .executeTakeFirstOrThrow()
    await trx
      .insertInto('oauth_accounts')
      .values({ provider, provider_user_id: profile.providerUserId, user_id: user.id })
      .execute()
    // Linking or creating just proved the address (the provider vouched for it).
    return { id: user.id, role: user.role, emailVerified: true }
  })
}
