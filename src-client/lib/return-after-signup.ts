// Where a new account was going when it signed up (a gift to claim, the teacher application): the sign-up page keeps
// the path in this browser, so the e-mail verification page, opened from the mail, can send the person on through the
// log-in to it rather than to the home page. A path only (checked again by safeReturnPath), never a token; it lapses
// after a day.
import { safeReturnPath } from '#shared/auth.ts'

const KEY = 'return-after-signup'
const LASTS_MS = 24 * 60 * 60 * 1000

export function keepReturnAfterSignup(path: string): void {
  try {
    window.localStorage.setItem(KEY, JSON.stringify({ path, at: Date.now() }))
  } catch {
    // storage refused (private mode, full): the verification page then sends the person to the log-in as before
  }
}

/** The kept path, when there is one and it is fresh; undefined on the server. */
export function keptReturnAfterSignup(): string | undefined {
  try {
    const kept = JSON.parse(window.localStorage.getItem(KEY) ?? 'null') as { path?: unknown; at?: unknown } | null
    if (!kept || typeof kept.at !== 'number' || Date.now() - kept.at > LASTS_MS) return undefined
    const path = safeReturnPath(kept.path, '')
    return path || undefined
  } catch {
    return undefined
  }
}
