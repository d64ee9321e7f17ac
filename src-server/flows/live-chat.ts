// Live chat (decision 0099): the staffed hours decide whether a chat may start; messages are limited per asker, and a
// visitor's starts per IP address (decision 0103); staff take, answer and end chats (editors and up, checked by the
// router). A chat already open goes on past closing time: nobody is cut off mid-sentence.
import type { z } from 'zod'
import {
  type ChatHours,
  chatOpenAt,
  describeChatHours,
  describeOpening,
  nextChatOpening,
  STAFFED_CHAT_HOURS,
} from '../../src-shared/live-chat.ts'
import { hasRole, type Role } from '../../src-shared/roles.ts'
import type { sendChatInput, startChatInput, startVisitorChatInput } from '../../src-shared/schemas/live-chat.ts'
import { SUPPORT_TIER_INFO } from '../../src-shared/support.ts'
import type * as audit from '../audit/repository.ts'
import { submitContactMessage } from '../contact/messages.ts'
import * as clock from '../kernel/clock.ts'
import type { AppConfig } from '../kernel/config.ts'
import { type DB, inTransaction } from '../kernel/db.ts'
import { DomainError } from '../kernel/errors.ts'
import {
  type ChatOwner,
  closeUnjoinedChat,
  endChat,
  linkChatToMessage,
  memberChat,
  openChatOf,
  postMemberMessage,
  startChat,
  startVisitorChat,
  takeChat,
  unjoinedChatIds,
} from '../live-chat/conversations.ts'
import { deskStaffed } from '../live-chat/desk-presence.ts'
import { newVisitorToken, setVisitorChatCookie, visitorOf, visitorTokenHash } from '../live-chat/visitor-token.ts'
import { enqueueMail } from '../mail/outbox.ts'
import { reserveAttempt } from '../security/attempts.ts'
import { RATE_RULES, type RateLimiter } from '../security/rate-limit.ts'
import { contactSenderOf } from './support.ts'

export const CHAT_TOO_MANY = 'You are sending messages too quickly. Please wait a moment.'
export const CHAT_TOO_MANY_STARTS =
  'You have started several chats already. Please try again later or send us a message.'
export const CHAT_NO_ASKER = 'Sign in or start a chat first'
export const CHAT_SIGNED_IN = 'You are signed in: start the chat from your account'

const hoursOf = (config: Pick<AppConfig, 'liveChatHours'>): ChatHours => config.liveChatHours ?? STAFFED_CHAT_HOURS

/**
 * Whether the chat is open now (its hours) and someone is at the desk (decision 0102: the page says "online" only
 * then); when closed, when it opens ("Monday at 9:00 AM GMT"); and the hours in words, as /contact states them.
 */
export async function chatAvailability(deps: { db: DB; config: Pick<AppConfig, 'liveChatHours'> }, now = clock.now()) {
  const config = hoursOf(deps.config)
  // The configured hours in words, for /contact's details and FAQ (never the default's when others are set).
  const hours = describeChatHours(config)
  if (chatOpenAt(config, now))
    return { open: true as const, staffed: await deskStaffed(deps.db, now), opensAt: null, opens: null, hours }
  const opening = nextChatOpening(config, now)
  return {
    open: false as const,
    staffed: false,
    opensAt: opening.toISOString(),
    opens: describeOpening(opening),
    hours,
  }
}

interface MemberChatDeps {
  db: DB
  limiter: RateLimiter
  config: Pick<AppConfig, 'liveChatHours'>
}

/** The caller as the chat knows them: the signed-in member, or the visitor their cookie names (decision 0103). */
interface Asker {
  user: { id: string } | null
  req?: { cookies: Record<string, string | undefined> }
}

/** Whose chat the caller may see and write in: the signed-in member's, else the visitor's; null for neither. */
export function chatOwnerOf(asker: Asker): ChatOwner | null {
  return asker.user ? { userId: asker.user.id } : visitorOf(asker.req)
}

/** The caller's chat owner, or a refusal for someone who is neither signed in nor holding a chat. */
export function askerOf(asker: Asker): ChatOwner {
  const owner = chatOwnerOf(asker)
  if (!owner) throw new DomainError('unauthenticated', CHAT_NO_ASKER)
  return owner
}

async function countMessage(limiter: RateLimiter, owner: ChatOwner) {
  const key = 'userId' in owner ? `chat:${owner.userId}` : `chat:visitor:${owner.visitorTokenHash}`
  await reserveAttempt(limiter, [{ rule: RATE_RULES.chatMessages, key }], CHAT_TOO_MANY)
}

/** The caller's chat as the page shows it (none for a visitor without one), and whether a new one may start now. */
export async function memberChatView(
  deps: Pick<MemberChatDeps, 'db' | 'config'>,
  owner: ChatOwner | null,
  now = clock.now(),
) {
  const [availability, chat] = await Promise.all([
    chatAvailability(deps, now),
    owner ? memberChat(deps.db, owner, now) : null,
  ])
  return { availability, chat }
}

/** Chats start in the staffed hours only. */
async function assertChatOpen(deps: Pick<MemberChatDeps, 'db' | 'config'>, now: Date) {
  const availability = await chatAvailability(deps, now)
  if (!availability.open) {
    throw new DomainError(
      'precondition',
      `Live chat is closed now; it opens ${availability.opens}. Send us a message instead.`,
    )
  }
}

/** A member starts a chat (in the staffed hours only) with their first message. */
export async function startMemberChat(
  deps: MemberChatDeps,
  userId: string,
  input: z.infer<typeof startChatInput>,
  now = clock.now(),
) {
  await assertChatOpen(deps, now)
  await countMessage(deps.limiter, { userId })
  return startChat(deps.db, userId, input.message, now)
}

/**
 * A visitor who is not signed in starts a chat (decision 0103) with their name, address and question: a new token,
 * set as their cookie, holds it. A second start while their chat is open adds to it (two tabs); a signed-in member is
 * sent to their own chat.
 */
export async function startVisitorChatAs(
  deps: MemberChatDeps &
    Asker & {
      clientIp: string
      config: Pick<AppConfig, 'cookieSecure'>
      res?: Parameters<typeof setVisitorChatCookie>[0]
    },
  input: z.infer<typeof startVisitorChatInput>,
  now = clock.now(),
) {
  if (deps.user) throw new DomainError('precondition', CHAT_SIGNED_IN)
  await assertChatOpen(deps, now)
  const visitor = visitorOf(deps.req)
  const open = visitor ? await openChatOf(deps.db, visitor) : null
  if (visitor && open) {
    await countMessage(deps.limiter, visitor)
    return postMemberMessage(deps.db, visitor, open, input.message, now)
  }
  await reserveAttempt(
    deps.limiter,
    [{ rule: RATE_RULES.visitorChats, key: `chat-start:${deps.clientIp}` }],
    CHAT_TOO_MANY_STARTS,
  )
  const token = newVisitorToken()
  const visitorDetails = { tokenHash: visitorTokenHash(token), name: input.name, email: input.email }
  const started = await startVisitorChat(deps.db, visitorDetails, input.message, now)
  if (deps.res) setVisitorChatCookie(deps.res, token, deps.config.cookieSecure)
  return started
}

export async function sendMemberChat(
  deps: MemberChatDeps,
  owner: ChatOwner,
  input: z.infer<typeof sendChatInput>,
  now = clock.now(),
) {
  await countMessage(deps.limiter, owner)
  return postMemberMessage(deps.db, owner, input.conversationId, input.body, now)
}

export function endMemberChat(db: DB, owner: ChatOwner, id: string, now = clock.now()) {
  return endChat(db, { side: 'member', owner }, id, now)
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
 * inbox as a contact message at their plan's tier (a visitor's at the Email tier), which the chat names; a member is
 * told by e-mail when the answer is due (a visitor by the panel: their address is only what they typed, decision
 * 0103). One transaction: the chat is never ended without its message. `owner` null: the closing-time sweep.
 */
export async function leaveChatAsMessage(db: DB, id: string, owner: ChatOwner | null, now = clock.now()) {
  return inTransaction(db, async (trx) => {
    const chat = await closeUnjoinedChat(trx, id, owner, now)
    const sender = chat.userId ? await contactSenderOf(trx, chat.userId, now) : undefined
    const messageId = await submitContactMessage(
      trx,
      {
        name: chat.name || chat.email,
        email: chat.email,
        subject: CHAT_INBOX_SUBJECT,
        message: chat.questions.join('\n\n'),
        agreement: true,
      },
      sender,
      now,
    )
    await linkChatToMessage(trx, id, messageId)
    if (sender) {
      const within = SUPPORT_TIER_INFO[sender.tier].replyWithinHours
      await enqueueMail(trx, {
        kind: 'chat-left-as-message',
        to: chat.email,
        subject: 'Your question is with our support team',
        text: [
          `Hello ${chat.name || chat.email},`,
          '',
          owner
            ? 'You left your live chat question as a message.'
            : 'Nobody from our team could join your live chat before it closed.',
          `Your question is in our support inbox, and we will answer it by e-mail within ${within} hours.`,
          '',
          ...chat.questions.map((question) => `> ${question}`),
        ].join('\n'),
      })
    }
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
