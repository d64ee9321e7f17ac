// OpenID Connect with openid-client (decision 0062): a school's provider discovered from its issuer, the
// authorization request (code flow with PKCE S256, state and nonce) and the callback's checks (state, PKCE, nonce,
// the ID token's signature, issuer, audience and expiry: all openid-client's). No code, token or secret leaves here.
// Every request to the provider (discovery, token, JWKS, userinfo) goes through kernel/private-targets.ts: a school's
// issuer, or an endpoint its discovery document names, on a private or loopback address is refused (SSRF).
import type { Configuration, CustomFetch } from 'openid-client'
import type { SignInFailureCode } from '../../src-shared/sign-in-failures.ts'
import { onFirstUse } from '../kernel/on-first-use.ts'
import { guardedFetch, isPrivateLiteral, isPrivateTargetError } from '../kernel/private-targets.ts'

/** openid-client, loaded by the first school sign-in or provider check: few requests are one (decision 0165). */
const openidClient = onFirstUse(() => import('openid-client'))
type Oidc = Awaited<ReturnType<typeof openidClient>>

/**
 * A school's sign-in refused or failed: `code` is what the browser is sent (the page has its own words for it, decision
 * 0144), the message our own reason — logged, and shown to the school's owner where it is theirs to fix — never the
 * provider's text; `providerError` the provider's OAuth error code when it answered with one (invalid_client …).
 */
export class SsoFailure extends Error {
  constructor(
    readonly code: SignInFailureCode,
    message: string,
    options?: { cause?: unknown; providerError?: string },
  ) {
    super(message, { cause: options?.cause })
    this.providerError = options?.providerError
  }
  readonly providerError: string | undefined
}

/** The provider's own OAuth error code (RFC 6749 §5.2: invalid_client, invalid_grant …), at most 60 characters. */
function providerErrorOf(oidc: Oidc, error: unknown): string | undefined {
  let code: unknown
  if (error instanceof oidc.ResponseBodyError || error instanceof oidc.AuthorizationResponseError) code = error.error
  else if (error instanceof oidc.WWWAuthenticateChallengeError) code = error.cause[0]?.parameters.error
  return typeof code === 'string' ? code.slice(0, 60) : undefined
}

/** The issuer, or an endpoint it names, is on a private or loopback address. */
export const PRIVATE_ISSUER_MESSAGE = 'the identity provider is on a private or local network address'

export interface OidcClientSettings {
  issuer: string
  clientId: string
  clientSecret: string
  redirectUri: string
  /**
   * Plain http issuers are refused unless this allows their host (tests: 'loopback'); 'loopback' also lets the
   * requests reach loopback and private addresses (else refused, SSO_HTTP_ISSUERS).
   */
  allowHttp?: 'loopback'
}

/** Whether the provider's requests may reach loopback and private addresses (SSO_HTTP_ISSUERS=loopback, tests). */
export const allowsPrivateIssuer = (allowHttp: 'loopback' | undefined) => allowHttp === 'loopback'

/**
 * Whether the issuer is written as a private or loopback address that the setting does not allow (a name is checked
 * when it is looked up, at each request).
 */
export function issuerIsPrivateLiteral(issuer: string, allowHttp: 'loopback' | undefined): boolean {
  if (allowsPrivateIssuer(allowHttp)) return false
  try {
    return isPrivateLiteral(new URL(issuer))
  } catch {
    return false
  }
}

/** An SsoFailure naming a private address when that is why the request failed, else the given reason. */
function failure(oidc: Oidc, error: unknown, code: SignInFailureCode, reason: string): SsoFailure {
  if (isPrivateTargetError(error)) return new SsoFailure('sso_provider_error', PRIVATE_ISSUER_MESSAGE, { cause: error })
  return new SsoFailure(code, reason, { cause: error, providerError: providerErrorOf(oidc, error) })
}

/**
 * The issuer answered discovery but its document names another issuer (openid-client's check): the owner typed it
 * differently from how the provider spells it (a path, a tenant, http for https). Both are said, the provider's cut.
 */
export class IssuerMismatch extends SsoFailure {
  constructor(
    readonly expected: string,
    readonly got: string,
    cause: unknown,
  ) {
    super('sso_provider_error', `the identity provider names a different issuer: expected ${expected}, got ${got}`, {
      cause,
    })
  }
}

function issuerMismatchOf(oidc: Oidc, error: unknown, expected: string): IssuerMismatch | null {
  if (!(error instanceof oidc.ClientError) || error.code !== 'OAUTH_JSON_ATTRIBUTE_COMPARISON_FAILED') return null
  const cause = error.cause as { attribute?: unknown; body?: { issuer?: unknown } } | undefined
  if (cause?.attribute !== 'issuer') return null
  const got = typeof cause.body?.issuer === 'string' ? cause.body.issuer.slice(0, 300) : '(none)'
  return new IssuerMismatch(expected, got, error)
}

const TIMEOUT_S = 10
const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]'])

/** Whether the issuer URL may be used: https, or http on the loopback host when allowed. */
export function issuerAllowed(issuer: string, allowHttp: 'loopback' | undefined): boolean {
  let url: URL
  try {
    url = new URL(issuer)
  } catch {
    return false
  }
  if (url.username || url.password || url.search || url.hash) return false
  if (url.protocol === 'https:') return true
  return url.protocol === 'http:' && allowHttp === 'loopback' && LOOPBACK.has(url.hostname)
}

export async function discover(settings: OidcClientSettings): Promise<Configuration> {
  if (!issuerAllowed(settings.issuer, settings.allowHttp)) {
    throw new SsoFailure('sso_provider_error', 'the issuer must be an https address')
  }
  if (issuerIsPrivateLiteral(settings.issuer, settings.allowHttp)) {
    throw new SsoFailure('sso_provider_error', PRIVATE_ISSUER_MESSAGE)
  }
  const insecure = new URL(settings.issuer).protocol === 'http:'
  const oidc = await openidClient()
  try {
    return await oidc.discovery(
      new URL(settings.issuer),
      settings.clientId,
      { client_secret: settings.clientSecret, redirect_uris: [settings.redirectUri] },
      oidc.ClientSecretBasic(settings.clientSecret),
      {
        timeout: TIMEOUT_S,
        execute: insecure ? [oidc.allowInsecureRequests] : [],
        // Kept by the configuration for every later request (token, JWKS, userinfo).
        [oidc.customFetch]: guardedFetch(allowsPrivateIssuer(settings.allowHttp)) as CustomFetch,
      },
    )
  } catch (error) {
    throw (
      issuerMismatchOf(oidc, error, settings.issuer) ??
      failure(oidc, error, 'sso_unreachable', 'the school’s identity provider could not be reached')
    )
  }
}

export interface AuthorizationStart {
  url: URL
  state: string
  nonce: string
  verifier: string
}

export async function authorizationRequest(
  config: Configuration,
  redirectUri: string,
  loginHint?: string,
): Promise<AuthorizationStart> {
  const oidc = await openidClient()
  const verifier = oidc.randomPKCECodeVerifier()
  const state = oidc.randomState()
  const nonce = oidc.randomNonce()
  const parameters: Record<string, string> = {
    redirect_uri: redirectUri,
    scope: 'openid email profile',
    response_type: 'code',
    code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
    code_challenge_method: 'S256',
    state,
    nonce,
  }
  if (loginHint) parameters.login_hint = loginHint
  return { url: oidc.buildAuthorizationUrl(config, parameters), state, nonce, verifier }
}

export interface SsoIdentity {
  issuer: string
  subject: string
  email: string | null
  emailVerified: boolean
  firstName: string
  lastName: string
}

const text = (value: unknown) => (typeof value === 'string' ? value.trim().slice(0, 80) : '')

/**
 * Exchanges the callback's code (checked against state, PKCE verifier and nonce) and reads the person from the ID
 * token, completed by the userinfo endpoint when the token carries no e-mail.
 */
export async function completeAuthorization(
  config: Configuration,
  callbackUrl: URL,
  checks: { state: string; nonce: string; verifier: string },
): Promise<SsoIdentity> {
  const oidc = await openidClient()
  let tokens: Awaited<ReturnType<Oidc['authorizationCodeGrant']>>
  try {
    tokens = await oidc.authorizationCodeGrant(config, callbackUrl, {
      expectedState: checks.state,
      expectedNonce: checks.nonce,
      pkceCodeVerifier: checks.verifier,
      idTokenExpected: true,
    })
  } catch (error) {
    throw failure(oidc, error, 'sso_not_confirmed', 'the identity provider did not confirm the sign-in')
  }
  const claims = tokens.claims()
  if (!claims) throw new SsoFailure('sso_provider_error', 'the identity provider sent no ID token')
  let info: Record<string, unknown> = claims
  if (typeof claims.email !== 'string') {
    try {
      info = { ...(await oidc.fetchUserInfo(config, tokens.access_token, claims.sub)), ...claims }
    } catch (error) {
      throw failure(oidc, error, 'sso_provider_error', 'the identity provider did not give the e-mail address')
    }
  }
  const name = text(info.name)
  return {
    issuer: String(claims.iss),
    subject: String(claims.sub),
    email: typeof info.email === 'string' ? info.email.trim().toLowerCase().slice(0, 254) || null : null,
    emailVerified: info.email_verified === true,
    firstName: text(info.given_name) || name.split(' ')[0] || '',
    lastName: text(info.family_name) || name.split(' ').slice(1).join(' '),
  }
}
