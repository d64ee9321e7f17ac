// GET /auth/{google,facebook}[?mode=admin&redirect=/path] starts the authorization-code flow; the provider
// returns to /auth/{provider}/callback. State (and Google's PKCE verifier) and where to go afterwards live in
// short-lived HttpOnly cookies. Failures never throw: they redirect with a code the page has words for
// (src-shared/sign-in-failures.ts, decision 0144), never with text.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { DELETION_CANCEL_PATH, safeReturnPath, TWO_FACTOR_SETUP_PATH } from '../../src-shared/auth.ts'
import { isStaff, staffRoleNeedsTwoFactor } from '../../src-shared/roles.ts'
import { type SignInFailureCode, signInFailurePath } from '../../src-shared/sign-in-failures.ts'
import {
  arctic,
  exchangeCode,
  fetchProfile,
  linkOrCreateUser,
  OAUTH_PROVIDERS,
  type OAuthCredentials,
  OAuthFailure,
  type OAuthProvider,
  oauthClient,
} from '../auth/oauth.ts'
import { finishFirstStep } from '../auth/sign-in.ts'
import { scheduledDeletionOf } from '../flows/account-deletion.ts'
import { signInUnlessHeld } from '../flows/sso-hold.ts'
import type { HttpDeps } from '../kernel/config.ts'
import type { DB } from '../kernel/db.ts'
import { isDomainError } from '../kernel/errors.ts'
import { privateCookie } from '../kernel/private-cookie.ts'
import { AccountSuspended } from '../users/suspension.ts'

const STATE_COOKIE = 'oauth_state'
const VERIFIER_COOKIE = 'oauth_verifier'
const FLOW_COOKIE = 'oauth_flow'
const COOKIE_MAX_AGE_S = 10 * 60

interface Flow {
  provider: OAuthProvider
  mode: 'user' | 'admin'
  redirect: string
}

function readFlow(raw: string | undefined): Flow | null {
  try {
    const value = JSON.parse(raw ?? '') as Partial<Flow>
    if (!value.provider || !OAUTH_PROVIDERS.includes(value.provider)) return null
    return {
      provider: value.provider,
      mode: value.mode === 'admin' ? 'admin' : 'user',
      redirect: safeReturnPath(value.redirect),
    }
  } catch {
    return null
  }
}

function failureUrl(mode: Flow['mode'], provider: OAuthProvider, code: SignInFailureCode, schoolSlug?: string) {
  return signInFailurePath(mode === 'admin' ? '/admin/login' : '/auth/callback', provider, code, schoolSlug)
}

async function codeOf(error: unknown): Promise<SignInFailureCode> {
  if (error instanceof OAuthFailure) return error.code
  const { ArcticFetchError, OAuth2RequestError } = await arctic()
  if (error instanceof OAuth2RequestError) return 'code_refused'
  if (error instanceof ArcticFetchError) return 'unreachable'
  return 'failed'
}

export function registerOAuthRoutes(app: FastifyInstance, deps: HttpDeps, credentials: OAuthCredentials) {
  const cookieOptions = privateCookie(deps.config.cookieSecure, { maxAge: COOKIE_MAX_AGE_S })
  const clearFlowCookies = (reply: FastifyReply) => {
    for (const name of [STATE_COOKIE, VERIFIER_COOKIE, FLOW_COOKIE]) reply.clearCookie(name, cookieOptions)
  }

  for (const provider of OAUTH_PROVIDERS) {
    app.get(`/auth/${provider}`, async (request: FastifyRequest<{ Querystring: Record<string, string> }>, reply) => {
      const mode = request.query.mode === 'admin' ? 'admin' : 'user'
      const redirect = safeReturnPath(request.query.redirect)
      try {
        const oauth = await oauthClient(provider, credentials, deps.config.publicUrl)
        const { generateCodeVerifier, generateState } = await arctic()
        const state = generateState()
        let url: URL
        if (oauth.provider === 'google') {
          const verifier = generateCodeVerifier()
          url = oauth.client.createAuthorizationURL(state, verifier, ['openid', 'email', 'profile'])
          reply.setCookie(VERIFIER_COOKIE, verifier, cookieOptions)
        } else {
          url = oauth.client.createAuthorizationURL(state, ['email', 'public_profile'])
        }
        reply.setCookie(STATE_COOKIE, state, cookieOptions)
        reply.setCookie(FLOW_COOKIE, JSON.stringify({ provider, mode, redirect } satisfies Flow), cookieOptions)
        return reply.redirect(url.toString())
      } catch (error) {
        return reply.redirect(failureUrl(mode, provider, await codeOf(error)))
      }
    })

    app.get(
      `/auth/${provider}/callback`,
      async (request: FastifyRequest<{ Querystring: Record<string, string> }>, reply) => {
        const flow = readFlow(request.cookies[FLOW_COOKIE])
        const expectedState = request.cookies[STATE_COOKIE]
        const verifier = request.cookies[VERIFIER_COOKIE]
        clearFlowCookies(reply)
        const mode = flow?.mode ?? 'user'
        const fail = (code: SignInFailureCode, schoolSlug?: string) =>
          reply.redirect(failureUrl(mode, provider, code, schoolSlug))

        if (request.query.error) return fail('cancelled')
        const { code, state } = request.query
        if (!flow || flow.provider !== provider || !code || !state || !expectedState || state !== expectedState) {
          return fail('expired')
        }
        try {
          const oauth = await oauthClient(provider, credentials, deps.config.publicUrl)
          const tokens = await exchangeCode(oauth, code, verifier ?? '')
          const profile = await fetchProfile(provider, tokens.accessToken())
          const user = await linkOrCreateUser(deps.db, provider, profile, {
            create: mode === 'user',
            refusal: 'not_staff',
          })
          // Staff sign-in needs a proven address, as the password form does.
          if (mode === 'admin' && (!isStaff(user.role) || !user.emailVerified)) return fail('not_staff')
          const signIn = { config: deps.config, req: request, res: reply, clientIp: request.ip }
          const next = mode === 'admin' ? '/admin' : flow.redirect
          // A member a school holds to its single sign-on signs in there, not with Google or Facebook (decision 0062);
          // the page names the school from its address. Staff sign-in is the platform's, which no school holds.
          // An account with a second factor asks for its code before the session, as after a password.
          const firstStep = (db: DB) => finishFirstStep({ ...signIn, db }, user.id, true)
          const step = await (mode === 'user' ? signInUnlessHeld(deps.db, user.id, firstStep) : firstStep(deps.db))
          if (step === 'two-factor') return reply.redirect(`/two-factor?redirect=${encodeURIComponent(next)}`)
          if (mode === 'admin') {
            const mustEnrol = deps.config.staffTwoFactor === 'required' && staffRoleNeedsTwoFactor(user.role)
            return reply.redirect(mustEnrol ? TWO_FACTOR_SETUP_PATH : '/admin')
          }
          // An account waiting out its deletion's cool-off goes where the password log-in sends it: Cancel deletion.
          if (await scheduledDeletionOf(deps.db, user.id)) {
            return reply.redirect(`/auth/callback?deletion=1&redirect=${encodeURIComponent(DELETION_CANCEL_PATH)}`)
          }
          return reply.redirect(`/auth/callback?redirect=${encodeURIComponent(flow.redirect)}`)
        } catch (error) {
          // The school's required sign-in is the way in (signInUnlessHeld's refusal): its page offers that button.
          if (isDomainError(error) && error.ssoSchool) return fail('sso_required', error.ssoSchool)
          // A refusal, not a failure: nothing to log.
          if (error instanceof AccountSuspended) return fail('suspended')
          if (!(error instanceof OAuthFailure)) request.log.warn({ err: error, provider }, 'OAuth sign-in failed')
          return fail(await codeOf(error))
        }
      },
    )
  }
}
