// Live chat between the staff and a signed-in member (decision 0099) or a visitor (decision 0103). A member has at most
// one open chat (a partial unique index), a visitor one chat a token; a staff member takes a waiting chat and answers
// it; either side ends it, once, and a member is mailed the transcript in the same transaction. Every write re-checks,
// in its own UPDATE, that the chat is still open (and whose it is), so a message and an ending racing each other
// leave one order of events, not a message after the end.
import type { ExpressionBuilder } from 'kysely'
import type { Database } from '../../db/types.ts'
import { CHAT_ENDED } from '../../src-shared/live-chat.ts'
import { fullName } from '../../src-shared/names.ts'
import * as audit from '../audit/repository.ts'
import * as clock from '../kernel/clock.ts'
import type { DB } from '../kernel/db.ts'
import { DomainError } from '../kernel/errors.ts'
import { pageOf } from '../kernel/paging.ts'
import { enqueueMail } from '../mail/outbox.ts'
import { staffEmail } from '../mail/staff-address.ts'
import { existingUserContact } from '../users/contact.ts'

/** How long a member still sees a chat after it ended (its last messages and "this chat has ended"). */
const ENDED_CHAT_SHOWN_MS = 30 * 60 * 1000

export const CHAT_NOT_FOUND = 'Chat not found'
export const CHAT_TAKEN = 'Another staff member is answering this chat'
export const CHAT_JOINED = 'A member of our team has joined your chat: carry on here'

/**
 * Whose chat it is: a signed-in member's, or a visitor's, known by the SHA-256 (hex) of the token their cookie holds.
 */
export type ChatOwner = { userId: string } | { visitorTokenHash: string }

/** The chats of `owner` (every member-side read and write names it). */
function ownedBy(owner: ChatOwner) {
  return (eb: ExpressionBuilder<Database, 'chat_conversations'>) =>
    'userId' in owner ? eb('user_id', '=', owner.userId) : eb('visitor_token_hash', '=', owner.visitorTokenHash)
}

/** A message from the member's or visitor's side. */
async function writeAsker(trx: DB, conversationId: string, body: string, now: Date) {
  await trx
    .insertInto('chat_messages')
    .values({ conversation_id: conversationId, from_staff: false, body, created_at: now })
    .execute()
}

/**
 * The chats a staff member may take, answer or end: one still waiting, or one they hold; with `anyHolder` (an admin
 * taking over) any chat.
 */
function staffMayAct(staffId: string, anyHolder = false) {
  return (eb: ExpressionBuilder<Database, 'chat_conversations'>) =>
    anyHolder ? eb.val(true) : eb.or([eb('assigned_to', 'is', null), eb('assigned_to', '=', staffId)])
}

/** A member starts a chat, or adds to their open one when a second start arrives at the same moment. */
export async function startChat(db: DB, userId: string, body: string, now = clock.now()) {
  return db.transaction().execute(async (trx) => {
    const created = await trx
      .insertInto('chat_conversations')
      .values({ user_id: userId, created_at: now, last_message_at: now })
      .onConflict((conflict) => conflict.column('user_id').where('closed_at', 'is', null).doNothing())
      .returning('id')
      .executeTakeFirst()
    const id =
      created?.id ??
      (
        await trx
          .updateTable('chat_conversations')
          .set({ last_message_at: now })
          .where('user_id', '=', userId)
          .where('closed_at', 'is', null)
          .returning('id')
          .executeTakeFirstOrThrow()
      ).id
    await writeAsker(trx, id, body, now)
    return { id }
  })
}

/** A visitor starts a chat under a new token (the flow made it, and sets their cookie): their name, address, question. */
export async function startVisitorChat(
  db: DB,
  visitor: { tokenHash: string; name: string; email: string },
  body: string,
  now = clock.now(),
) {
  return db.transaction().execute(async (trx) => {
    const { id } = await trx
      .insertInto('chat_conversations')
      .values({
        visitor_token_hash: visitor.tokenHash,
        visitor_name: visitor.name,
        visitor_email: visitor.email,
        created_at: now,
        last_message_at: now,
      })
      .returning('id')
      .executeTakeFirstOrThrow()
    await writeAsker(trx, id, body, now)
    return { id }
  })
}

/** The owner's chat still open, if any. */
export async function openChatOf(db: DB, owner: ChatOwner): Promise<string | null> {
  const row = await db
    .selectFrom('chat_conversations')
    .select('id')
    .where(ownedBy(owner))
    .where('closed_at', 'is', null)
    .executeTakeFirst()
  return row?.id ?? null
}

/**
 * Why a guarded update of a chat found no row: gone, ended, or held by someone (`held`: what that is called, another
 * staff member's for staff, "our team has joined" for the member leaving it as a message).
 */
async function refusal(db: DB, id: string, owner?: ChatOwner, held = CHAT_TAKEN): Promise<DomainError> {
  let query = db.selectFrom('chat_conversations').select(['closed_at', 'assigned_to']).where('id', '=', id)
  if (owner) query = query.where(ownedBy(owner))
  const row = await query.executeTakeFirst()
  if (!row) return new DomainError('not_found', CHAT_NOT_FOUND)
  return new DomainError('conflict', row.closed_at ? CHAT_ENDED : held)
}

/** The member or visitor writes in their own open chat. */
export async function postMemberMessage(db: DB, owner: ChatOwner, id: string, body: string, now = clock.now()) {
  return db.transaction().execute(async (trx) => {
    const open = await trx
      .updateTable('chat_conversations')
      .set({ last_message_at: now })
      .where('id', '=', id)
      .where(ownedBy(owner))
      .where('closed_at', 'is', null)
      .returning('id')
      .executeTakeFirst()
    if (!open) throw await refusal(trx, id, owner)
    await writeAsker(trx, id, body, now)
    return { id }
  })
}

/**
 * A staff member takes a waiting chat; a second staff member pressing at the same moment is refused. An admin may
 * take over a chat another staff member holds (someone gone for the day).
 */
export async function takeChat(db: DB, actor: audit.Actor, id: string, takeOver: boolean) {
  return db.transaction().execute(async (trx) => {
    const taken = await trx
      .updateTable('chat_conversations')
      .set({ assigned_to: actor.id })
      .where('id', '=', id)
      .where('closed_at', 'is', null)
      .where(staffMayAct(actor.id, takeOver))
      .returning('id')
      .executeTakeFirst()
    if (!taken) throw await refusal(trx, id)
    await audit.record(trx, actor, 'chat.taken', { type: 'chat_conversation', id, after: { assignedTo: actor.id } })
    return { id }
  })
}

/** The staff member who holds the chat answers (taking it first if it still waits). */
export async function postStaffMessage(db: DB, staffId: string, id: string, body: string, now = clock.now()) {
  return db.transaction().execute(async (trx) => {
    const open = await trx
      .updateTable('chat_conversations')
      .set((eb) => ({ last_message_at: now, assigned_to: eb.fn.coalesce('assigned_to', eb.val(staffId)) }))
      .where('id', '=', id)
      .where('closed_at', 'is', null)
      .where(staffMayAct(staffId))
      .returning('id')
      .executeTakeFirst()
    if (!open) throw await refusal(trx, id)
    await trx
      .insertInto('chat_messages')
      .values({ conversation_id: id, staff_id: staffId, from_staff: true, body, created_at: now })
      .execute()
    return { id }
  })
}

/** How the member sees a message's author: "You", or the staff member's first name and the company. */
const memberSideAuthor = (message: { fromStaff: boolean; staffName: string | null }) =>
  message.fromStaff ? `${message.staffName ?? 'Support'} (SkillForge)` : 'You'

/** A chat's messages, oldest first, with the staff author's first name (what the member sees of them). */
export function chatMessages(db: DB, conversationId: string) {
  return messagesOf(db, [conversationId])
}

/** The messages of some chats, in the order they were written (each names its chat). */
function messagesOf(db: DB, conversationIds: readonly string[]) {
  return db
    .selectFrom('chat_messages as m')
    .leftJoin('users as staff', 'staff.id', 'm.staff_id')
    .select([
      'm.id',
      'm.conversation_id as conversationId',
      'm.body',
      'm.from_staff as fromStaff',
      'm.created_at as createdAt',
      'staff.first_name as staffName',
    ])
    .where('m.conversation_id', 'in', conversationIds)
    .orderBy('m.created_at')
    .orderBy('m.id')
    .execute()
}

/**
 * Ends an open chat, once, and mails its transcript to a member in the same transaction (Reply-To the staff address,
 * so "reply to this e-mail" reaches the support inbox). A visitor's is not mailed:
 * their address is only what they typed, and the chat must not send our mail to anyone's (decision 0103).
 */
export async function endChat(
  db: DB,
  by: { side: 'member'; owner: ChatOwner } | { side: 'staff'; actor: audit.Actor; anyHolder: boolean },
  id: string,
  now = clock.now(),
) {
  return db.transaction().execute(async (trx) => {
    let update = trx
      .updateTable('chat_conversations')
      .set({ closed_at: now, closed_by: by.side })
      .where('id', '=', id)
      .where('closed_at', 'is', null)
    if (by.side === 'member') update = update.where(ownedBy(by.owner))
    else update = update.where(staffMayAct(by.actor.id, by.anyHolder))
    const ended = await update.returning(['id', 'user_id']).executeTakeFirst()
    if (!ended) throw await refusal(trx, id, by.side === 'member' ? by.owner : undefined)
    if (by.side === 'staff') {
      await audit.record(trx, by.actor, 'chat.ended', { type: 'chat_conversation', id, after: { ended: true } })
    }
    const result = { id, endedAt: now.toISOString() }
    if (!ended.user_id) return result
    const member = await existingUserContact(trx, ended.user_id)
    const messages = await chatMessages(trx, id)
    await enqueueMail(trx, {
      kind: 'chat-transcript',
      to: member.email,
      // The mail invites a reply: it goes to the staff address (as support answers' do), not to the no-reply sender.
      replyTo: staffEmail(),
      subject: 'Your live chat with SkillForge support',
      text: [
        `Hello ${fullName(member.first_name, member.last_name) || member.email},`,
        '',
        'Here is the transcript of your live chat with us. Reply to this e-mail if you have more to ask.',
        '',
        ...messages.map(
          (message) =>
            `[${message.createdAt.toISOString().slice(11, 16)} GMT] ${memberSideAuthor(message)}: ${message.body}`,
        ),
      ].join('\n'),
    })
    return result
  })
}

/**
 * Ends a chat nobody has joined as one left for the support inbox (decision 0101): the asker's own (`owner`), or any
 * waiting one (the closing-time sweep, `owner` null). The guard is in the UPDATE, so when a staff member takes the
 * chat at the same moment one of the two wins: the chat is either taken and open, or ended and in the inbox.
 * Returns who asked (a member, or a visitor's name and address) and what they asked.
 */
export async function closeUnjoinedChat(trx: DB, id: string, owner: ChatOwner | null, now = clock.now()) {
  let update = trx
    .updateTable('chat_conversations')
    .set({ closed_at: now, closed_by: 'inbox' })
    .where('id', '=', id)
    .where('closed_at', 'is', null)
    .where('assigned_to', 'is', null)
  if (owner) update = update.where(ownedBy(owner))
  const closed = await update.returning(['user_id', 'visitor_name', 'visitor_email']).executeTakeFirst()
  if (!closed) throw await refusal(trx, id, owner ?? undefined, CHAT_JOINED)
  const [member, messages] = await Promise.all([
    closed.user_id ? existingUserContact(trx, closed.user_id) : null,
    chatMessages(trx, id),
  ])
  return {
    userId: closed.user_id,
    email: member?.email ?? closed.visitor_email ?? '',
    name: member ? fullName(member.first_name, member.last_name) : (closed.visitor_name ?? ''),
    questions: messages.filter((message) => !message.fromStaff).map((message) => message.body),
  }
}

/** Names the support inbox message an unjoined chat became. */
export async function linkChatToMessage(trx: DB, id: string, contactMessageId: string): Promise<void> {
  await trx
    .updateTable('chat_conversations')
    .set({ contact_message_id: contactMessageId })
    .where('id', '=', id)
    .execute()
}

/** Open chats nobody has joined, longest waiting first (what closing time passes to the inbox). */
export async function unjoinedChatIds(db: DB): Promise<string[]> {
  const rows = await db
    .selectFrom('chat_conversations')
    .select('id')
    .where('closed_at', 'is', null)
    .where('assigned_to', 'is', null)
    .orderBy('created_at')
    .execute()
  return rows.map((row) => row.id)
}

/**
 * The member's or visitor's open chat, or the one that ended in the last half hour, with its messages; null when
 * neither. `mailed`: whether its transcript goes by e-mail (a member's).
 */
export async function memberChat(db: DB, owner: ChatOwner, now = clock.now()) {
  const conversation = await db
    .selectFrom('chat_conversations')
    .select([
      'id',
      'assigned_to as assignedTo',
      'created_at as startedAt',
      'closed_at as endedAt',
      'closed_by as endedBy',
    ])
    .where(ownedBy(owner))
    .where((eb) =>
      eb.or([eb('closed_at', 'is', null), eb('closed_at', '>', new Date(now.getTime() - ENDED_CHAT_SHOWN_MS))]),
    )
    .orderBy('created_at', 'desc')
    .limit(1)
    .executeTakeFirst()
  if (!conversation) return null
  const messages = await chatMessages(db, conversation.id)
  return {
    id: conversation.id,
    startedAt: conversation.startedAt.toISOString(),
    endedAt: conversation.endedAt?.toISOString() ?? null,
    endedBy: conversation.endedBy,
    mailed: 'userId' in owner,
    waiting: conversation.assignedTo === null,
    messages: messages.map((message) => ({
      id: message.id,
      body: message.body,
      fromStaff: message.fromStaff,
      author: memberSideAuthor(message),
      createdAt: message.createdAt.toISOString(),
    })),
  }
}

/**
 * Chats as the staff see them: the member or visitor, who holds the chat, and its times (the queue and one chat share
 * it).
 */
function staffChatRows(db: DB) {
  return db
    .selectFrom('chat_conversations as c')
    .leftJoin('users as member', 'member.id', 'c.user_id')
    .leftJoin('users as staff', 'staff.id', 'c.assigned_to')
    .select([
      'c.id',
      'c.assigned_to as assignedToId',
      'staff.email as assignedTo',
      'c.created_at as startedAt',
      'c.last_message_at as lastMessageAt',
      'c.closed_at as endedAt',
      'c.closed_by as endedBy',
      'member.email as memberEmail',
      'member.first_name as memberFirstName',
      'member.last_name as memberLastName',
      'c.visitor_name as visitorName',
      'c.visitor_email as visitorEmail',
    ])
}

type StaffChatRow = Awaited<ReturnType<ReturnType<typeof staffChatRows>['executeTakeFirstOrThrow']>>

/**
 * A row for the page: the member's name (their address when they gave none) or the name the visitor gave, whether it
 * is a visitor (not signed in: the address is only what they typed), and times as ISO strings.
 */
function staffChatView({ memberFirstName, memberLastName, visitorName, visitorEmail, ...row }: StaffChatRow) {
  const memberEmail = row.memberEmail ?? visitorEmail ?? ''
  return {
    ...row,
    memberEmail,
    visitor: visitorEmail !== null,
    memberName: visitorName ?? (fullName(memberFirstName ?? '', memberLastName ?? '') || memberEmail),
    startedAt: row.startedAt.toISOString(),
    lastMessageAt: row.lastMessageAt.toISOString(),
    endedAt: row.endedAt?.toISOString() ?? null,
  }
}

/**
 * The staff's chat queue, a page at a time: open chats waiting to be taken first (longest waiting first), then taken
 * ones; or ended chats, latest first. Each says whether its last word is the member's (a reply is owed).
 */
export async function staffChatQueue(db: DB, options: { status: 'open' | 'closed'; page: number; pageSize: number }) {
  const base = staffChatRows(db).select((eb) =>
    eb
      .selectFrom('chat_messages as last')
      .select('last.from_staff')
      .whereRef('last.conversation_id', '=', 'c.id')
      .orderBy('last.created_at', 'desc')
      .orderBy('last.id', 'desc')
      .limit(1)
      .as('lastFromStaff'),
  )
  const ordered =
    options.status === 'open'
      ? base
          .where('c.closed_at', 'is', null)
          .orderBy((eb) => eb.case().when('c.assigned_to', 'is', null).then(0).else(1).end())
          .orderBy('c.created_at')
          .orderBy('c.id')
      : base.where('c.closed_at', 'is not', null).orderBy('c.closed_at', 'desc').orderBy('c.id')
  const { rows, ...paging } = await pageOf(ordered, options.page, options.pageSize)
  return {
    items: rows.map(({ lastFromStaff, ...row }) => ({
      ...staffChatView(row),
      replyOwed: row.endedAt === null && lastFromStaff === false,
    })),
    ...paging,
  }
}

/** How many open chats wait for someone to take them (the admin menu's count). */
export async function waitingChatCount(db: DB): Promise<number> {
  const row = await db
    .selectFrom('chat_conversations')
    .select((eb) => eb.fn.countAll<string>().as('count'))
    .where('closed_at', 'is', null)
    .where('assigned_to', 'is', null)
    .executeTakeFirstOrThrow()
  return Number(row.count)
}

/** One chat for the staff: the member, who holds it, and every message with its author. */
export async function staffChat(db: DB, id: string) {
  const row = await staffChatRows(db).where('c.id', '=', id).executeTakeFirst()
  if (!row) throw new DomainError('not_found', CHAT_NOT_FOUND)
  const chat = staffChatView(row)
  const messages = await chatMessages(db, id)
  return {
    ...chat,
    messages: messages.map((message) => ({
      id: message.id,
      body: message.body,
      fromStaff: message.fromStaff,
      author: message.fromStaff ? (message.staffName ?? 'Staff') : chat.memberName,
      createdAt: message.createdAt.toISOString(),
    })),
  }
}

/** Every chat of the member with its messages, for their data export. */
export async function chatsOf(db: DB, userId: string) {
  const chats = await db
    .selectFrom('chat_conversations')
    .select(['id', 'created_at', 'closed_at'])
    .where('user_id', '=', userId)
    .orderBy('created_at')
    .execute()
  if (chats.length === 0) return []
  // One query for every chat's messages, not one a chat.
  const messages = await messagesOf(
    db,
    chats.map((chat) => chat.id),
  )
  return chats.map((chat) => ({
    ...chat,
    messages: messages
      .filter((message) => message.conversationId === chat.id)
      .map((message) => ({ from: memberSideAuthor(message), body: message.body, created_at: message.createdAt })),
  }))
}

/** Removes chats that ended before `before` (the retention job); open ones stay whatever their age. */
export async function purgeEndedChats(db: DB, before: Date): Promise<number> {
  const result = await db.deleteFrom('chat_conversations').where('closed_at', '<', before).executeTakeFirst()
  return Number(result.numDeletedRows)
}

/**
 * An erased account's live chats: a member's go with it (decision 0099), messages and all; the open chats a staff
 * member held wait for another, and their desk presence ends.
 */
export async function forgetChatsOf(trx: DB, userId: string): Promise<void> {
  await trx.deleteFrom('chat_conversations').where('user_id', '=', userId).execute()
  await trx
    .updateTable('chat_conversations')
    .set({ assigned_to: null })
    .where('assigned_to', '=', userId)
    .where('closed_at', 'is', null)
    .execute()
  await trx.deleteFrom('chat_desk_presence').where('user_id', '=', userId).execute()
}
