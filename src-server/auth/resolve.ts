// Reads the session cookie of a request, validates it, and re-sends the cookie when the expiry slid forward.
import type { DB } from '../kernel/db.ts'
import { sessionSiteOf } from '../kernel/hosts.ts'
import { clearSessionCookie, setSessionCookie } from './cookies.ts'
import { SESSION_COOKIE, validateSessionToken } from './session.ts'
import type { ResolveSession } from './types.ts'

/** A request without a session cookie: one answer for all of them, no promise made per request (issue 37). */
const NO_SESSION: ReturnType<ResolveSession> = Promise.resolve(Object.freeze({ user: null, session: null }))

/** Whether a request carries a session cookie: without one there is no session to resolve, refresh or clear. */
export function carriesSession(req: { cookies: Record<string, string | undefined> }): boolean {
  return req.cookies[SESSION_COOKIE] !== undefined
}

export function makeResolveSession(db: DB, options: { secure: boolean; publicUrl: string }): ResolveSession {
  const withToken = async (token: string, req: Parameters<ResolveSession>[0], res: Parameters<ResolveSession>[1]) => {
    const result = await validateSessionToken(db, token, undefined, sessionSiteOf(req.host, options.publicUrl))
    if (!result) {
      clearSessionCookie(res, options)
      return { user: null, session: null }
    }
    if (result.refreshed && result.session.remember) setSessionCookie(res, token, result.session, options)
    return { user: result.user, session: result.session }
  }
  return (req, res) => {
    const token = req.cookies[SESSION_COOKIE]
    return token ? withToken(token, req, res) : NO_SESSION
  }
}
