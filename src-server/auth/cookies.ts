// The session cookie: HttpOnly, SameSite=Lax, Secure in production. Without "remember me" it has no
// Max-Age, so the browser drops it when it closes (the server session still expires on its own).
import type { FastifyReply } from 'fastify'
import { privateCookie } from '../kernel/private-cookie.ts'
import { SESSION_COOKIE } from './session.ts'

export interface CookieOptions {
  secure: boolean
}

export function setSessionCookie(
  reply: FastifyReply,
  token: string,
  session: { expiresAt: Date; remember: boolean },
  options: CookieOptions,
): void {
  reply.setCookie(
    SESSION_COOKIE,
    token,
    privateCookie(options.secure, session.remember ? { expires: session.expiresAt } : {}),
  )
}

export function clearSessionCookie(reply: FastifyReply, options: CookieOptions): void {
  reply.clearCookie(SESSION_COOKIE, privateCookie(options.secure))
}
