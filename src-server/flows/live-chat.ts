// Live chat (decision 0099): the staffed hours decide whether a member may start a chat; a member's messages are
// limited per person; staff take, answer and end chats (editors and up, checked by the router). A chat already open
// goes on past closing time: nobody is cut off mid-sentence.
import type { z } from 'zod'
import {
  type ChatHours,
  chatOpenAt,
  describeOpening,
  nextChatOpening,
  STAFFED_CHAT_HOURS,
} from '../../src-shared/live-chat.ts'
import { hasRole, type Role } from '../../src-shared/roles.ts'
import type { sendChatInput, startChatInput } from '../../src-shared/schemas/live-chat.ts'
import type * as audit from '../audit/repository.ts'
import * as clock from '../kernel/clock.ts'
import type { AppConfig } from '../kernel/config.ts'
import type { DB } from '../kernel/db.ts'
import { DomainError } from '../kernel/errors.ts'
import { endChat, memberChat, postMemberMessage, startChat, takeChat } from '../live-chat/conversations.ts'
import { reserveAttempt } from '../security/attempts.ts'
import { RATE_RULES, type RateLimiter } from '../security/rate-limit.ts'

export const CHAT_TOO_MANY = 'You are sending messages too quickly. Please wait a moment.'

const hoursOf = (config: Pick<AppConfig, 'liveChatHours'>): ChatHours => config.liveChatHours ?? STAFFED_CHAT_HOURS

/** Whether the chat is staffed now and, when not, when it opens ("Monday at 9:00 AM GMT"). */
export function chatAvailability(config: Pick<AppConfig, 'liveChatHours'>, now = clock.now()) {
  const hours = hoursOf(config)
  if (chatOpenAt(hours, now)) return { open: true as const, opensAt: null, opens: null }
  const opening = nextChatOpening(hours, now)
  return { open: false as const, opensAt: opening.toISOString(), opens: describeOpening(opening) }
}

interface MemberChatDeps {
  db: DB
  limiter: RateLimiter
  config: Pick<AppConfig, 'liveChatHours'>
}

async function countMessage(limiter: RateLimiter, userId: string) {
  await reserveAttempt(limiter, [{ rule: RATE_RULES.chatMessages, key: `chat:${userId}` }], CHAT_TOO_MANY)
}

/** The member's chat as the page shows it, and whether a new one may start now. */
export async function memberChatView(deps: Pick<MemberChatDeps, 'db' | 'config'>, userId: string, now = clock.now()) {
  return { availability: chatAvailability(deps.config, now), chat: await memberChat(deps.db, userId, now) }
}

/** A member starts a chat (in the staffed hours only) with their first message. */
export async function startMemberChat(
  deps: MemberChatDeps,
  userId: string,
  input: z.infer<typeof startChatInput>,
  now = clock.now(),
) {
  const availability = chatAvailability(deps.config, now)
  if (!availability.open) {
    throw new DomainError(
      'precondition',
      `Live chat is closed now; it opens ${availability.opens}. Send us a message instead.`,
    )
  }
  await countMessage(deps.limiter, userId)
  return startChat(deps.db, userId, input.message, now)
}

export async function sendMemberChat(
  deps: MemberChatDeps,
  userId: string,
  input: z.infer<typeof sendChatInput>,
  now = clock.now(),
) {
  await countMessage(deps.limiter, userId)
  return postMemberMessage(deps.db, userId, input.conversationId, input.body, now)
}

export function endMemberChat(db: DB, userId: string, id: string, now = clock.now()) {
  return endChat(db, { side: 'member', userId }, id, now)
}

/** Staff take a chat; admins and owners may take over one another staff member holds. */
export function takeChatAsStaff(db: DB, actor: audit.Actor & { role: Role }, id: string) {
  return takeChat(db, actor, id, hasRole(actor.role, 'admin'))
}

/** Staff end a chat they hold or one still waiting; admins and owners any chat. */
export function endChatAsStaff(db: DB, actor: audit.Actor & { role: Role }, id: string, now = clock.now()) {
  return endChat(db, { side: 'staff', actor, anyHolder: hasRole(actor.role, 'admin') }, id, now)
}
