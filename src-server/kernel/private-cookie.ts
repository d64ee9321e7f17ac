// Every cookie the server sets is private to it: HttpOnly (no script reads it), SameSite=Lax (not sent on another
// site's form posts or embeds), Secure when the site is served over HTTPS. One rule, so a new cookie cannot forget
// one of the three; each cookie names only its path and how long it lives. The policy page lists them all
// (src-shared/cookies.ts, checked by tests/unit/cookie-policy.test.ts).

export interface PrivateCookieLife {
  /** Where the browser sends it; '/' for the whole site, a flow's own path to keep it off every other request. */
  path?: string
  /** Seconds it lives; without it the browser drops it when it closes. */
  maxAge?: number
  /** Or the moment it ends (the session cookie with "remember me"). */
  expires?: Date
}

export function privateCookie(secure: boolean, life: PrivateCookieLife = {}) {
  return { httpOnly: true, sameSite: 'lax' as const, secure, path: '/', ...life }
}
