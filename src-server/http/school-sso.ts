// GET /auth/sso/{slug}[?redirect=/path] starts a school's OpenID Connect sign-in (code flow, PKCE S256, state and
// nonce); the provider returns to /auth/sso/callback. The flow's checks and where to go afterwards live in one
// short-lived HttpOnly cookie, as Google's and Facebook's do (http/oauth.ts). Failures redirect with
// '{School} sign-in failed: reason'; no code, token or secret is logged (the request log redacts code and state).
// An identity whose address belongs to an existing account the school may not claim (decision 0062) waits for that
// account's consent when its owner is the one signed in here: the callback holds it for this session and sends the
// browser to the consent page, /account/sso-link.
// On a school's own domain the whole flow runs on that domain (its return address is the domain's, which the owner
// registers too): the flow's cookie is host-only and a session belongs to the site it is made on, so a flow started
// there and returning to the platform's host would find neither. Started under another school's domain, the browser
// is sent to the platform's host first.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { safeReturnPath } from '../../src-shared/auth.ts'
import { authorizationRequest, completeAuthorization, discover, SsoFailure } from '../auth/oidc.ts'
import { finishFirstStep } from '../auth/sign-in.ts'
import { holdPendingLink, SsoConsentNeeded } from '../auth/sso-links.ts'
import { accountForSsoIdentity, SSO_CALLBACK_PATH, ssoSiteUrl, usableSso } from '../flows/school-sso.ts'
import type { HttpDeps } from '../kernel/config.ts'

const FLOW_COOKIE = 'sso_flow'
/** The page where a signed-in account's owner agrees (or not) to link a school's sign-in. */
const SSO_CONSENT_PATH = '/account/sso-link'
const COOKIE_MAX_AGE_S = 10 * 60

interface Flow {
  schoolId: string
  name: string
  state: string
  nonce: string
  verifier: string
  redirect: string
}

function readFlow(raw: string | undefined): Flow | null {
  try {
    const value = JSON.parse(raw ?? '') as Partial<Flow>
    const fields = [value.schoolId, value.name, value.state, value.nonce, value.verifier]
    if (!fields.every((field) => typeof field === 'string' && field.length > 0)) return null
    return { ...(value as Flow), redirect: safeReturnPath(value.redirect) }
  } catch {
    return null
  }
}

function failureUrl(name: string, reason: string) {
  return `/auth/callback?error=${encodeURIComponent(`${name} sign-in failed: ${reason}`)}`
}

function reasonOf(error: unknown): string {
  return error instanceof SsoFailure ? error.message : 'something went wrong. Please try again'
}

export function registerSchoolSsoRoutes(app: FastifyInstance, deps: HttpDeps) {
  const cookieOptions = {
    httpOnly: true,
    sameSite: 'lax' as const,
    secure: deps.config.cookieSecure,
    path: '/auth/sso',
    maxAge: COOKIE_MAX_AGE_S,
  }
  const clearFlow = (reply: FastifyReply) => reply.clearCookie(FLOW_COOKIE, { path: '/auth/sso' })

  app.get(SSO_CALLBACK_PATH, async (request: FastifyRequest<{ Querystring: Record<string, string> }>, reply) => {
    const flow = readFlow(request.cookies[FLOW_COOKIE])
    clearFlow(reply)
    const name = flow?.name ?? 'School'
    const fail = (reason: string) => reply.redirect(failureUrl(name, reason))
    if (!flow) return fail('the sign-in request expired. Please try again')
    if (request.query.error) return fail('sign-in was cancelled or refused by the identity provider')
    if (!request.query.code || request.query.state !== flow.state) {
      return fail('the sign-in request expired or did not match. Please try again')
    }
    try {
      const sso = await usableSso(deps.db, deps.config, { schoolId: flow.schoolId })
      const site = await ssoSiteUrl(deps.db, deps.config, sso.school.id, request.host)
      if (!site) return fail('the sign-in request expired or did not match. Please try again')
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
      if (!(error instanceof SsoFailure)) request.log.warn({ err: error }, 'SSO sign-in failed')
      return fail(reasonOf(error))
    }
  })

  app.get(
    '/auth/sso/:slug',
    async (request: FastifyRequest<{ Params: { slug: string }; Querystring: Record<string, string> }>, reply) => {
      const redirect = safeReturnPath(request.query.redirect)
      try {
        const sso = await usableSso(deps.db, deps.config, { slug: String(request.params.slug).toLowerCase() })
        const site = await ssoSiteUrl(deps.db, deps.config, sso.school.id, request.host)
        if (!site) {
          const path = `/auth/sso/${encodeURIComponent(sso.school.slug)}?redirect=${encodeURIComponent(redirect)}`
          return reply.redirect(`${deps.config.publicUrl}${path}`)
        }
        const config = await discover(sso.client)
        const { url, ...checks } = await authorizationRequest(config, `${site}${SSO_CALLBACK_PATH}`)
        const flow: Flow = { schoolId: sso.school.id, name: sso.school.name, ...checks, redirect }
        reply.setCookie(FLOW_COOKIE, JSON.stringify(flow), cookieOptions)
        return reply.redirect(url.toString())
      } catch (error) {
        if (!(error instanceof SsoFailure)) request.log.warn({ err: error }, 'SSO sign-in could not start')
        return reply.redirect(failureUrl('School', reasonOf(error)))
      }
    },
  )
}
