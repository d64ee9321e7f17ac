// Reads the session cookie of a request, validates it, and re-sends the cookie when the expiry slid forward.
import type { DB } from '../kernel/db.ts'
import { clearSessionCookie, setSessionCookie } from './cookies.ts'
import { SESSION_COOKIE, validateSessionToken } from './session.ts'
import type { ResolveSession } from './types.ts'

export function makeResolveSession(db: DB, options: { secure: boolean }): ResolveSession {
  return async (req, res) => {
    const token = req.cookies[SESSION_COOKIE]
    if (!token) return { user: null, session: null }
    const result = await validateSessionToken(db, token)
    if (!result) {
      clearSessionCookie(res, options)
      return { user: null, session: null }
    }
    if (result.refreshed && result.session.remember) setSessionCookie(res, token, result.session, options)
    return { user: result.user, session: result.session }
  }
}
