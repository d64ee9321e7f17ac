// The browser that signed up (decision 0134): a random secret in its own HttpOnly cookie, whose SHA-256 the sign-up's
// verification link keeps. The link applies the sign-up's password when it is opened in that browser; anywhere else it
// asks for the password first. So the owner of an address who opens a stranger's sign-up mail (one they did not ask
// for) cannot give the stranger their account by clicking it. The secret proves nothing else and unlocks nothing.
import type { FastifyReply, FastifyRequest } from 'fastify'
import { privateCookie } from '../kernel/private-cookie.ts'
import { randomToken } from '../kernel/random-token.ts'
import { TOKEN_TTL_MS } from './tokens.ts'

export const SIGNUP_BROWSER_COOKIE = 'signup_browser'
const SECRET = /^[a-z2-7]{32}$/

/** This browser's secret: the one its cookie holds (several sign-ups from one browser share it), or a new one. */
export function signupBrowserSecret(request: FastifyRequest | undefined): string {
  const kept = request?.cookies[SIGNUP_BROWSER_COOKIE]
  return kept && SECRET.test(kept) ? kept : randomToken(20)
}

/** Keeps the secret as long as a verification link lives. */
export function setSignupBrowserCookie(reply: FastifyReply, secret: string, secure: boolean) {
  reply.setCookie(SIGNUP_BROWSER_COOKIE, secret, privateCookie(secure, { maxAge: TOKEN_TTL_MS.verify_email / 1000 }))
}

/** The secret this request's browser holds, if any. */
export function signupBrowserOf(request: FastifyRequest | undefined): string | undefined {
  return request?.cookies[SIGNUP_BROWSER_COOKIE]
}
