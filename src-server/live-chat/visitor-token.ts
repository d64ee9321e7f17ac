// A visitor's hold on their live chat (decision 0103): a random token in an HttpOnly cookie. Only its SHA-256 is
// stored (the chat's visitor_token_hash), so what the database holds cannot open a chat. One token a chat.
import type { FastifyReply } from 'fastify'
import { hashToken } from '../auth/tokens.ts'
import { privateCookie } from '../kernel/private-cookie.ts'
import { randomToken } from '../kernel/random-token.ts'

export const VISITOR_CHAT_COOKIE = 'chat_visitor'
/** A day: the chat, and the half hour an ended one stays on screen, with room to spare. */
const COOKIE_SECONDS = 24 * 60 * 60
/** 25 random bytes in base32 (40 characters): what a cookie must look like before it is hashed and looked up. */
const TOKEN_SHAPE = /^[a-z2-7]{40}$/

export function newVisitorToken(): string {
  return randomToken(25)
}

export const visitorTokenHash = hashToken

/** The visitor a request's cookie names, as a chat owner; null without a well-formed token. */
export function visitorOf(request?: { cookies: Record<string, string | undefined> }) {
  const token = request?.cookies[VISITOR_CHAT_COOKIE]
  return token && TOKEN_SHAPE.test(token) ? { visitorTokenHash: visitorTokenHash(token) } : null
}

export function setVisitorChatCookie(reply: FastifyReply, token: string, secure: boolean) {
  reply.setCookie(VISITOR_CHAT_COOKIE, token, privateCookie(secure, { maxAge: COOKIE_SECONDS }))
}
