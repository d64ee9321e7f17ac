// GET /auth/sso/{slug}[?redirect=/path] starts a school's OpenID Connect sign-in (code flow, PKCE S256, state and
// nonce); the provider returns to /auth/sso/callback. The flow's checks and where to go afterwards live in one
// short-lived HttpOnly cookie, as Google's and Facebook's do (http/oauth.ts). Failures redirect with a code the page
// has words for and the school's address (src-shared/sign-in-failures.ts, decision 0144), never with text; each is
// logged (warn) with the school and our reason, so a provider set up wrongly can be found; no code, token or secret is
// logged (the request log redacts code and state).
// An identity whose address belongs to an existing account the school may not claim (decision 0062) waits for that
// account's consent when its owner is the one signed in here: the callback holds it for this session and sends the
// browser to the consent page, /account/sso-link.
// On a school's own domain the whole flow runs on that domain (its return address is the domain's, which the owner
// registers too): the flow's cookie is host-only and a session belongs to the site it is made on, so a flow started
// there and returning to the platform's host would find neither. Started under another school's domain, the browser
// is sent to the platform's host first.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { safeReturnPath } from '../../src-shared/auth.ts'
import { type SignInFailureCode, signInFailurePath } from '../../src-shared/sign-in-failures.ts'
import { authorizationRequest, completeAuthorization, discover, SsoFailure } from '../auth/oidc.ts'
import { finishFirstStep } from '../auth/sign-in.ts'
import { holdPendingLink, SsoConsentNeeded } from '../auth/sso-links.ts'
import { schoolBySlug } from '../creators/schools.ts'
import { accountForSsoIdentity, SSO_CALLBACK_PATH, ssoSiteUrl, usableSso } from '../flows/school-sso.ts'
import type { HttpDeps } from '../kernel/config.ts'
import { privateCookie } from '../kernel/private-cookie.ts'
import { AccountSuspended } from '../users/suspension.ts'

const FLOW_COOKIE = 'sso_flow'
/** The page where a signed-in account's owner agrees (or not) to link a school's sign-in. */
const SSO_CONSENT_PATH = '/account/sso-link'
const COOKIE_MAX_AGE_S = 10 * 60

interface Flow {
  schoolId: string
  /** The school's address, which the failure page names the school by. */
  slug: string
  state: string
  nonce: string
  verifier: string
  redirect: string
}

function readFlow(raw: string | undefined): Flow | null {
  try {
    const value = JSON.parse(raw ?? '') as Partial<Flow>
    const fields = [value.schoolId, value.slug, value.state, value.nonce, value.verifier]
    if (!fields.every((field) => typeof field === 'string' && field.length > 0)) return null
    return { ...(value as Flow), redirect: safeReturnPath(value.redirect) }
  } catch {
    return null
  }
}

function failureUrl(code: SignInFailureCode, slug: string | undefined) {
  return signInFailurePath('/auth/callback', 'school', code, slug)
}

const codeOf = (error: unknown): SignInFailureCode => (error instanceof SsoFailure ? error.code : 'failed')

/** An OAuth error code (RFC 6749 §4.1.2.1: access_denied, unauthorized_client …) as sent, or "unrecognised": the
 * parameter is whatever the address says, so nothing else of it reaches the log. */
const oauthErrorCode = (value: string) => (/^[A-Za-z0-9_.-]{1,60}$/.test(value) ? value : 'unrecognised')

/**
 * The log line of a failed school sign-in: the school and our reason (the provider's OAuth error code when it gave
 * one: invalid_client says the stored secret is wrong), so an owner's misconfigured provider can be told apart from a
 * learner's mistake; anything else is unexpected and logged whole. Never a code, token or secret.
 */
function logFailure(request: FastifyRequest, error: unknown, schoolId: string | undefined, message: string) {
  if (error instanceof SsoFailure) {
    request.log.warn({ schoolId, reason: error.message, providerError: error.providerError }, message)
  } else {
    request.log.warn({ err: error, schoolId }, message)
  }
}

export function registerSchoolSsoRoutes(app: FastifyInstance, deps: HttpDeps) {
  const cookieOptions = privateCookie(deps.config.cookieSecure, { path: '/auth/sso', maxAge: COOKIE_MAX_AGE_S })
  const clearFlow = (reply: FastifyReply) => reply.clearCookie(FLOW_COOKIE, cookieOptions)

  app.get(SSO_CALLBACK_PATH, async (request: FastifyRequest<{ Querystring: Record<string, string> }>, reply) => {
    const flow = readFlow(request.cookies[FLOW_COOKIE])
    clearFlow(reply)
    const fail = (code: SignInFailureCode) => reply.redirect(failureUrl(code, flow?.slug))
    // Refused before any exchange: logged too, the provider's own error code with it (unauthorized_client says the
    // client is set up wrongly there; access_denied that the person said no).
    const refuse = (code: SignInFailureCode, reason: string, providerError?: string) => {
      request.log.warn({ schoolId: flow?.schoolId, reason, providerError }, 'SSO sign-in failed')
      return fail(code)
    }
    if (!flow) return refuse('expired', 'no sign-in flow in this browser (expired or never started)')
    if (request.query.error) {
      return refuse('cancelled', 'the identity provider refused the authorisation', oauthErrorCode(request.query.error))
    }
    if (!request.query.code || request.query.state !== flow.state) {
      return refuse('expired', 'the provider’s answer does not match this browser’s sign-in flow')
    }
    try {
      const sso = await usableSso(deps.db, deps.config, { schoolId: flow.schoolId })
      const site = await ssoSiteUrl(deps.db, deps.config, sso.school.id, request.host)
      if (!site) return refuse('expired', 'the sign-in came back to a site that is not the school’s')
      const config = await discover(sso.client)
      // The return address the flow was started with: this site's (the token request must name the same one).
      const identity = await completeAuthorization(config, new URL(request.url, site), flow)
      let user: Awaited<ReturnType<typeof accountForSsoIdentity>>
      try {
        user = await accountForSsoIdentity(deps.db, sso.settings, identity)
      } catch (error) {
        if (!(error instanceof SsoConsentNeeded)) throw error
        const signedIn = await deps.resolveSession(request, reply)
        if (signedIn.user?.id !== error.userId || !signedIn.session) throw error
        await holdPendingLink(deps.db, signedIn.session.id, error.userId, {
          schoolId: sso.school.id,
          issuer: identity.issuer,
          subject: identity.subject,
          email: identity.email ?? '',
          redirect: flow.redirect,
        })
        return reply.redirect(SSO_CONSENT_PATH)
      }
      const signIn = { db: deps.db, config: deps.config, req: request, res: reply, clientIp: request.ip }
      if ((await finishFirstStep(signIn, user.id, false)) === 'two-factor') {
        return reply.redirect(`/two-factor?redirect=${encodeURIComponent(flow.redirect)}`)
      }
      return reply.redirect(`/auth/callback?redirect=${encodeURIComponent(flow.redirect)}`)
    } catch (error) {
      // A refusal, not a failure: nothing to log.
      if (error instanceof AccountSuspended) return fail('suspended')
      logFailure(request, error, flow.schoolId, 'SSO sign-in failed')
      return fail(codeOf(error))
    }
  })

  app.get(
    '/auth/sso/:slug',
    async (request: FastifyRequest<{ Params: { slug: string }; Querystring: Record<string, string> }>, reply) => {
      const redirect = safeReturnPath(request.query.redirect)
      const slug = String(request.params.slug).toLowerCase()
      try {
        const sso = await usableSso(deps.db, deps.config, { slug })
        const site = await ssoSiteUrl(deps.db, deps.config, sso.school.id, request.host)
        if (!site) {
          const path = `/auth/sso/${encodeURIComponent(sso.school.slug)}?redirect=${encodeURIComponent(redirect)}`
          return reply.redirect(`${deps.config.publicUrl}${path}`)
        }
        const config = await discover(sso.client)
        const { url, ...checks } = await authorizationRequest(config, `${site}${SSO_CALLBACK_PATH}`)
        const flow: Flow = { schoolId: sso.school.id, slug: sso.school.slug, ...checks, redirect }
        reply.setCookie(FLOW_COOKIE, JSON.stringify(flow), cookieOptions)
        return reply.redirect(url.toString())
      } catch (error) {
        // The page names the school (its provider down, say) by its address, when there is such a school.
        const school = await schoolBySlug(deps.db, slug).catch(() => null)
        logFailure(request, error, school?.id, 'SSO sign-in could not start')
        return reply.redirect(failureUrl(codeOf(error), school?.slug))
      }
    },
  )
}
