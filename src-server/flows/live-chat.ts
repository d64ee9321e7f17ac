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
import { SUPPORT_TIER_INFO } from '../../src-shared/support.ts'
import type * as audit from '../audit/repository.ts'
import { submitContactMessage } from '../contact/messages.ts'
import * as clock from '../kernel/clock.ts'
import type { AppConfig } from '../kernel/config.ts'
import { type DB, inTransaction } from '../kernel/db.ts'
import { DomainError } from '../kernel/errors.ts'
import {
  closeUnjoinedChat,
  endChat,
  linkChatToMessage,
  memberChat,
  postMemberMessage,
  startChat,
  takeChat,
  unjoinedChatIds,
} from '../live-chat/conversations.ts'
import { deskStaffed } from '../live-chat/desk-presence.ts'
import { enqueueMail } from '../mail/outbox.ts'
import { reserveAttempt } from '../security/attempts.ts'
import { RATE_RULES, type RateLimiter } from '../security/rate-limit.ts'
import { supportOf } from './support.ts'

export const CHAT_TOO_MANY = 'You are sending messages too quickly. Please wait a moment.'

const hoursOf = (config: Pick<AppConfig, 'liveChatHours'>): ChatHours => config.liveChatHours ?? STAFFED_CHAT_HOURS

/**
 * Whether the chat is open now (its hours) and someone is at the desk (decision 0102: the page says "online" only
 * then); when closed, when it opens ("Monday at 9:00 AM GMT").
 */
export async function chatAvailability(deps: { db: DB; config: Pick<AppConfig, 'liveChatHours'> }, now = clock.now()) {
  const hours = hoursOf(deps.config)
  if (chatOpenAt(hours, now))
    return { open: true as const, staffed: await deskStaffed(deps.db, now), opensAt: null, opens: null }
  const opening = nextChatOpening(hours, now)
  return { open: false as const, staffed: false, opensAt: opening.toISOString(), opens: describeOpening(opening) }
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
  const [availability, chat] = await Promise.all([chatAvailability(deps, now), memberChat(deps.db, userId, now)])
  return { availability, chat }
}

/** A member starts a chat (in the staffed hours only) with their first message. */
export async function startMemberChat(
  deps: MemberChatDeps,
  userId: string,
  input: z.infer<typeof startChatInput>,
  now = clock.now(),
) {
  const availability = await chatAvailability(deps, now)
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

export const CHAT_INBOX_SUBJECT = 'Live chat question'

/**
 * A chat nobody joined, left as a message (decision 0101): it ends, and what the member asked goes to the support
 * inbox as a contact message at their plan's tier, which the chat names; the member is told by e-mail when the answer
 * is due. One transaction: the chat is never ended without its message. `userId` null: the closing-time sweep.
 */
export async function leaveChatAsMessage(db: DB, id: string, userId: string | null, now = clock.now()) {
  return inTransaction(db, async (trx) => {
    const chat = await closeUnjoinedChat(trx, id, userId, now)
    const support = await supportOf(trx, chat.userId, now)
    const messageId = await submitContactMessage(
      trx,
      {
        name: chat.name || chat.email,
        email: chat.email,
        subject: CHAT_INBOX_SUBJECT,
        message: chat.questions.join('\n\n'),
        agreement: true,
      },
      { userId: chat.userId, tier: support.tier, managerEmail: support.manager?.email ?? null },
      now,
    )
    await linkChatToMessage(trx, id, messageId)
    const within = SUPPORT_TIER_INFO[support.tier].replyWithinHours
    await enqueueMail(trx, {
      kind: 'chat-left-as-message',
      to: chat.email,
      subject: 'Your question is with our support team',
      text: [
        `Hello ${chat.name || chat.email},`,
        '',
        userId
          ? 'You left your live chat question as a message.'
          : 'Nobody from our team could join your live chat before it closed.',
        `Your question is in our support inbox, and we will answer it by e-mail within ${within} hours.`,
        '',
        ...chat.questions.map((question) => `> ${question}`),
      ].join('\n'),
    })
    return { id, contactMessageId: messageId }
  })
}

/**
 * At closing time, every chat still waiting is left as a message, so no question waits unseen overnight. During the
 * hours it does nothing; a chat a staff member takes meanwhile stays theirs.
 */
export async function passUnjoinedChatsToInbox(
  deps: { db: DB; config: Pick<AppConfig, 'liveChatHours'> },
  now = clock.now(),
): Promise<number> {
  if (chatOpenAt(hoursOf(deps.config), now)) return 0
  let passed = 0
  for (const id of await unjoinedChatIds(deps.db)) {
    try {
      await leaveChatAsMessage(deps.db, id, null, now)
      passed++
    } catch (error) {
      // Taken or ended by then: nothing to pass on.
      if (!(error instanceof DomainError)) throw error
    }
  }
  return passed
}
