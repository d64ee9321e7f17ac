// Signing in on a school's own domain without typing a password there (decision 0063): the domain hands the sign-in
// to the platform's host and gets a session back.
//   1. GET  {domain}/auth/handoff/start?next=/path[&signup=1]: a verifier in a host-only cookie; the browser goes to
//      the platform's /handoff page with the verifier's SHA-256 (the challenge), through its log-in (or sign-up).
//   2. POST {platform}/auth/handoff: the signed-in learner's "Continue": a one-time code for that domain and challenge,
//      posted to the domain by a form (never in a URL).
//   3. POST {domain}/auth/handoff/complete: the cross-site post carries no cookie (SameSite=Lax), so this answer only
//      posts the code on to the domain itself; it changes nothing (hence exempt from the same-origin check).
//   4. POST {domain}/auth/handoff/finish: same-origin, with the verifier cookie: the code is redeemed and the session,
//      this domain's alone, is set.
// The staff never sign in under a school's domain (decision 0063), so their accounts are not handed.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { HANDOFF_ISSUE_PATH, HANDOFF_START_PATH, safeReturnPath } from '../../src-shared/auth.ts'
import { HANDOFF_CHALLENGE, issueHandoff, newHandoffVerifier, redeemHandoff } from '../auth/handoffs.ts'
import { startSession } from '../auth/login.ts'
import { handoffTarget, schoolForHost, siteUrlForHost } from '../flows/school-domain.ts'
import type { HttpDeps } from '../kernel/config.ts'
import { inTransaction } from '../kernel/db.ts'
import { hostnameOf } from '../kernel/hosts.ts'
import { escapeHtml } from '../kernel/html.ts'
import { privateCookie } from '../kernel/private-cookie.ts'
import { AccountSuspended } from '../users/suspension.ts'

export const HANDOFF_COMPLETE_PATH = '/auth/handoff/complete'
const HANDOFF_FINISH_PATH = '/auth/handoff/finish'
/** The platform's page where the signed-in learner continues to the domain (src-client/routes/handoff.tsx). */
const HANDOFF_PAGE = '/handoff'
const VERIFIER_COOKIE = 'sf_handoff'
const VERIFIER_MAX_AGE_S = 15 * 60
/** Where a failed hand-off lands on the domain: its log-in page says so. */
const FAILED = '/login?handoff=failed'

type Fields = Record<string, string | undefined>

/** The platform's /handoff page for this domain, challenge and return path. */
function handoffPagePath(site: string, challenge: string, next: string): string {
  const query = new URLSearchParams({ site, challenge, next })
  return `${HANDOFF_PAGE}?${query}`
}

/**
 * A page that posts `fields` to `action` at once (a button does it without JavaScript). Its own policy: no source
 * but its one inline script, and forms only to that address.
 */
function postOnward(reply: FastifyReply, action: string, fields: Fields) {
  const nonce = crypto.randomUUID().replaceAll('-', '')
  const origin = new URL(action).origin
  const inputs = Object.entries(fields)
    .map(([name, value]) => `<input type="hidden" name="${escapeHtml(name)}" value="${escapeHtml(value ?? '')}">`)
    .join('')
  reply
    .header('cache-control', 'no-store')
    // Not no-referrer: that would send "Origin: null" on the same-origin post, which the same-origin check refuses.
    .header('referrer-policy', 'same-origin')
    .header(
      'content-security-policy',
      `default-src 'none'; script-src 'nonce-${nonce}'; form-action ${origin}; frame-ancestors 'none'; base-uri 'none'`,
    )
    .type('text/html; charset=utf-8')
  return reply.send(
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Signing you in…</title></head>` +
      `<body><form method="post" action="${escapeHtml(action)}">${inputs}<p>Signing you in…</p><button type="submit">Continue</button></form>` +
      `<script nonce="${nonce}">document.forms[0].submit()</script></body></html>`,
  )
}

export async function registerSignInHandoffRoutes(app: FastifyInstance, deps: HttpDeps) {
  const { db, config } = deps
  const cookieOptions = privateCookie(config.cookieSecure, { path: '/auth/handoff', maxAge: VERIFIER_MAX_AGE_S })

  app.get(HANDOFF_START_PATH, async (request: FastifyRequest<{ Querystring: Fields }>, reply) => {
    const next = safeReturnPath(request.query.next)
    const hostname = hostnameOf(request.host)
    // On the platform's host (or a name no school holds) there is nothing to hand: its own log-in page.
    if (!(await schoolForHost(db, hostname))) return reply.redirect(`/login?redirect=${encodeURIComponent(next)}`)
    const { verifier, challenge } = newHandoffVerifier()
    reply.setCookie(VERIFIER_COOKIE, verifier, cookieOptions)
    const page = handoffPagePath(hostname, challenge, next)
    const target = request.query.signup === '1' ? `/signup?redirect=${encodeURIComponent(page)}` : page
    return reply.redirect(`${config.publicUrl}${target}`)
  })

  await app.register(async (scope) => {
    // What a browser's form sends, and only that; three short fields.
    scope.removeAllContentTypeParsers()
    scope.addContentTypeParser(
      'application/x-www-form-urlencoded',
      { parseAs: 'string', bodyLimit: 4 * 1024 },
      (_request, body, done) => done(null, Object.fromEntries(new URLSearchParams(body as string))),
    )

    scope.post(HANDOFF_ISSUE_PATH, async (request, reply) => {
      const fields = (request.body ?? {}) as Fields
      const site = hostnameOf(fields.site)
      const challenge = fields.challenge ?? ''
      const next = safeReturnPath(fields.next)
      const back = handoffPagePath(site, challenge, next)
      const { user } = await deps.resolveSession(request, reply)
      if (!user) return reply.redirect(`/login?redirect=${encodeURIComponent(back)}`, 303)
      // A wrong request goes back to the page, which says what is wrong (its loader asks handoffTarget too).
      const target = HANDOFF_CHALLENGE.test(challenge) ? await handoffTarget(db, user, site).catch(() => null) : null
      if (!target) return reply.redirect(back, 303)
      const code = await issueHandoff(db, {
        userId: user.id,
        siteHost: site,
        challenge,
        remember: fields.remember === 'on',
      })
      const siteUrl = await siteUrlForHost(db, config.publicUrl, site)
      return postOnward(reply, `${siteUrl}${HANDOFF_COMPLETE_PATH}`, { code, next })
    })

    scope.post(HANDOFF_COMPLETE_PATH, async (request, reply) => {
      const fields = (request.body ?? {}) as Fields
      const siteUrl = await siteUrlForHost(db, config.publicUrl, request.host)
      return postOnward(reply, `${siteUrl}${HANDOFF_FINISH_PATH}`, { code: fields.code, next: fields.next })
    })

    scope.post(HANDOFF_FINISH_PATH, async (request, reply) => {
      const fields = (request.body ?? {}) as Fields
      const verifier = request.cookies[VERIFIER_COOKIE]
      reply.clearCookie(VERIFIER_COOKIE, cookieOptions)
      const hostname = hostnameOf(request.host)
      const code = fields.code
      const grant =
        code && (await schoolForHost(db, hostname))
          ? await inTransaction(db, async (trx) => {
              const redeemed = await redeemHandoff(trx, code, hostname, verifier)
              if (redeemed) {
                await startSession(trx, reply, config, redeemed.userId, redeemed.remember, {
                  userAgent: request.headers['user-agent'],
                  clientIp: request.ip,
                })
              }
              return redeemed
            }).catch((error: unknown) => {
              // Suspended since the hand-off began (its codes end with the suspension; this one lost the race).
              if (error instanceof AccountSuspended) return null
              throw error
            })
          : null
      if (!grant) return reply.redirect(FAILED, 303)
      return reply.redirect(safeReturnPath(fields.next), 303)
    })
  })
}
