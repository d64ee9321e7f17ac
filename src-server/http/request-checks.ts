// The checks every request passes before its route, in one hook (issue 37: each hook is a step of Fastify's hook
// runner, and these almost always pass). In order, as when they were hooks of their own:
//   1. X-Request-Id (kernel/error-mapping.ts): on every answer, redirects and refusals included;
//   2. the canonical host (security/https.ts): production over https sends other host names to PUBLIC_URL;
//   3. a school's domain (http/school-hosts.ts): its home goes to the school's page, the marketplace's pages to the
//      marketplace (decision 0143);
//   4. the security headers (security/headers.ts): on every answer that got past 2 and 3;
//   5. the cross-site check (auth/csrf.ts): a state-changing request from another site is refused with 403.
// 2 and 3 pass at once for almost every request; only a foreign host (2) or a page on a school's domain (3) waits for
// the database. @fastify/cookie's parsing hook now runs after the cross-site check rather than before it: the check
// reads no cookie, and a refused request's answer sets none.
import type { FastifyInstance, FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify'
import type { Redirect, RequestCheck } from '../security/https.ts'

function sendRedirect(reply: FastifyReply, redirect: Redirect) {
  if (redirect.noStore) reply.header('Cache-Control', 'no-store')
  reply.redirect(redirect.url, redirect.status)
}

export interface RequestChecks {
  /** 2: the canonical host's redirect, if the server has one. */
  canonicalHost: RequestCheck | null
  /** 3: a school's home. */
  schoolHome: RequestCheck
  /** 1 and 4: sets X-Request-Id and the security headers for the address (security/headers.ts, responseHeaders). */
  setHeaders: (reply: FastifyReply, requestId: string, url: string) => void
  /** 5: whether the request may go on (same origin, a safe method, or an exempt path). */
  allowed: (request: FastifyRequest) => boolean
}

export function registerRequestChecks(app: FastifyInstance, checks: RequestChecks): void {
  const { canonicalHost, schoolHome, setHeaders, allowed } = checks

  /** 1 (again, the same value, when it was set alone before waiting for 2 or 3), 4 and 5. */
  const finish = (request: FastifyRequest, reply: FastifyReply, done: HookHandlerDoneFunction) => {
    setHeaders(reply, request.id, request.url)
    if (allowed(request)) return done()
    reply.code(403).send({ error: 'Forbidden', message: 'Cross-site request refused' })
  }

  const afterCanonical = (
    request: FastifyRequest,
    reply: FastifyReply,
    done: HookHandlerDoneFunction,
    idSet: boolean,
  ) => {
    const school = schoolHome(request)
    if (school === null) return finish(request, reply, done)
    if (!idSet) reply.header('x-request-id', request.id)
    school.then(
      (redirect) => {
        if (redirect) sendRedirect(reply, redirect)
        else finish(request, reply, done)
      },
      (error: Error) => done(error),
    )
  }

  app.addHook('onRequest', (request, reply, done) => {
    const canonical = canonicalHost?.(request) ?? null
    if (canonical === null) return afterCanonical(request, reply, done, false)
    reply.header('x-request-id', request.id)
    canonical.then(
      (redirect) => {
        if (redirect) sendRedirect(reply, redirect)
        else afterCanonical(request, reply, done, true)
      },
      (error: Error) => done(error),
    )
  })
}
