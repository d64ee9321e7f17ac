// Live chat (decision 0099), through the routers on a real database: a member starts a chat in the staffed hours,
// staff take and answer it, either side ends it once and the member is mailed the transcript; a chat is its
// member's alone; two starts or two takes at the same moment leave one chat and one holder.
import { strFromU8 } from 'fflate'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createSession } from '../../../src-server/auth/session.ts'
import type { SessionUser } from '../../../src-server/auth/types.ts'
import { collectPersonalData } from '../../../src-server/flows/data-export.ts'
import {
  CHAT_INBOX_SUBJECT,
  CHAT_NO_ASKER,
  CHAT_TOO_MANY,
  chatAvailability,
  passUnjoinedChatsToInbox,
  startMemberChat,
} from '../../../src-server/flows/live-chat.ts'
import { runRetention } from '../../../src-server/flows/retention.ts'
import { defaultAppConfig } from '../../../src-server/kernel/config.ts'
import type { DatabaseHandle } from '../../../src-server/kernel/db.ts'
import { CHAT_JOINED, CHAT_TAKEN, memberChat } from '../../../src-server/live-chat/conversations.ts'
import { DESK_PRESENCE_MS } from '../../../src-server/live-chat/desk-presence.ts'
import { latestMailTo } from '../../../src-server/mail/outbox.ts'
import { createCaller } from '../../../src-server/routers/_app.ts'
import { createMemoryLimiter } from '../../../src-server/security/rate-limit.ts'
import { createContextInner } from '../../../src-server/trpc/context.ts'
import { CHAT_ENDED, parseChatHours, STAFFED_CHAT_HOURS } from '../../../src-shared/live-chat.ts'
import { createTestDatabase } from '../../support/db.ts'
import { createUser } from '../../support/factories.ts'

let database: DatabaseHandle
const db = () => database.db
const ALWAYS = { days: [0, 1, 2, 3, 4, 5, 6], openMinute: 0, closeMinute: 24 * 60 }

beforeAll(async () => {
  database = await createTestDatabase()
})
afterAll(async () => {
  await database?.close()
})

/** A caller on a server whose chat is staffed at every hour (the hours themselves: tests/unit/live-chat-hours). */
async function callerFor(user: SessionUser | null, hours = ALWAYS) {
  const config = { ...defaultAppConfig, liveChatHours: hours }
  if (!user) return createCaller(createContextInner({ db: db(), user: null, session: null, config }))
  const { session } = await createSession(db(), user.id)
  return createCaller(createContextInner({ db: db(), user, session, config }))
}

async function member(firstName = 'Maya') {
  const user = await createUser(db(), { firstName, lastName: 'Learner' })
  return { user, caller: await callerFor(user) }
}

async function staff(role: 'viewer' | 'editor' | 'admin', firstName = 'Sam') {
  const user = await createUser(db(), { role, firstName, lastName: 'Staff' })
  return { user, caller: await callerFor(user) }
}

type Caller = Awaited<ReturnType<typeof callerFor>>

/** Every chat of the staff's queue, page after page (other tests' chats share the database). */
async function wholeQueue(caller: Caller, status: 'open' | 'closed') {
  const rows = []
  for (let page = 1; ; page++) {
    const answer = await caller.admin.liveChat.queue({ status, page })
    rows.push(...answer.items)
    if (page >= answer.pageCount) return rows
  }
}

const auditOf = (id: string) =>
  db()
    .selectFrom('audit_log')
    .select(['action', 'actor_email'])
    .where('entity_id', '=', id)
    .orderBy('created_at')
    .execute()

describe('a member’s chat with the staff', () => {
  it('starts waiting, is answered by the staff member who takes it, and the member reads the answer', async () => {
    const { user, caller } = await member()
    expect(await caller.liveChat.mine()).toMatchObject({ availability: { open: true }, chat: null })
    const { id } = await caller.liveChat.start({ message: '  How do I download my certificate?  ' })

    const mine = await caller.liveChat.mine()
    expect(mine.chat).toMatchObject({ id, waiting: true, endedAt: null })
    expect(mine.chat?.messages).toEqual([
      expect.objectContaining({ body: 'How do I download my certificate?', fromStaff: false, author: 'You' }),
    ])

    const { caller: editor, user: editorUser } = await staff('editor', 'Priya')
    const waitingBefore = (await editor.admin.liveChat.waiting()).count
    expect(waitingBefore).toBeGreaterThanOrEqual(1)
    const queue = await wholeQueue(editor, 'open')
    expect(queue.find((row) => row.id === id)).toMatchObject({
      memberName: 'Maya Learner',
      memberEmail: user.email,
      assignedTo: null,
      replyOwed: true,
    })

    await editor.admin.liveChat.reply({ id, body: 'Open My Courses and press Certificate.' })
    expect((await editor.admin.liveChat.waiting()).count).toBe(waitingBefore - 1)
    const answered = await caller.liveChat.mine()
    expect(answered.chat).toMatchObject({ waiting: false })
    expect(answered.chat?.messages.map((message) => [message.author, message.body])).toEqual([
      ['You', 'How do I download my certificate?'],
      ['Priya (SkillForge)', 'Open My Courses and press Certificate.'],
    ])
    const row = (await wholeQueue(editor, 'open')).find((chat) => chat.id === id)
    expect(row).toMatchObject({ assignedTo: editorUser.email, replyOwed: false })

    const detail = await editor.admin.liveChat.conversation({ id })
    expect(detail).toMatchObject({ memberName: 'Maya Learner', assignedTo: editorUser.email })
    expect(detail.messages.map((message) => message.author)).toEqual(['Maya Learner', 'Priya'])
  })

  it('a second start while a chat is open adds to that chat; the member writes on until it ends', async () => {
    const { caller } = await member()
    const first = await caller.liveChat.start({ message: 'First question' })
    const second = await caller.liveChat.start({ message: 'Second question' })
    expect(second.id).toBe(first.id)
    await caller.liveChat.send({ conversationId: first.id, body: 'And a third' })
    const mine = await caller.liveChat.mine()
    expect(mine.chat?.messages.map((message) => message.body)).toEqual([
      'First question',
      'Second question',
      'And a third',
    ])
  })

  it('the member ends it once: the transcript is mailed to them, and nothing more can be written in it', async () => {
    const { user, caller } = await member('Jonas')
    const { id } = await caller.liveChat.start({ message: 'Can I change my invoice address?' })
    const { caller: editor } = await staff('editor', 'Lena')
    await editor.admin.liveChat.reply({ id, body: 'Yes, under Account, Billing.' })
    await caller.liveChat.end({ id })

    const mail = await latestMailTo(db(), user.email, 'chat-transcript')
    expect(mail?.subject).toBe('Your live chat with SkillForge support')
    // It says "reply to this e-mail": the reply goes to the staff address, not to the no-reply sender.
    expect(mail?.text_body).toContain('Reply to this e-mail if you have more to ask.')
    expect(mail?.reply_to).toBe('support@skillforge.example')
    expect(mail?.text_body).toContain('Hello Jonas Learner,')
    expect(mail?.text_body).toMatch(/GMT\] You: Can I change my invoice address\?/)
    expect(mail?.text_body).toMatch(/GMT\] Lena \(SkillForge\): Yes, under Account, Billing\./)

    await expect(caller.liveChat.end({ id })).rejects.toMatchObject({ code: 'CONFLICT', message: CHAT_ENDED })
    await expect(caller.liveChat.send({ conversationId: id, body: 'One more' })).rejects.toMatchObject({
      code: 'CONFLICT',
      message: CHAT_ENDED,
    })
    await expect(editor.admin.liveChat.reply({ id, body: 'Anything else?' })).rejects.toMatchObject({
      code: 'CONFLICT',
      message: CHAT_ENDED,
    })
    // The member still sees the ended chat for half an hour, then a fresh start.
    expect((await caller.liveChat.mine()).chat).toMatchObject({ id, endedBy: 'member' })
    expect(await memberChat(db(), { userId: user.id }, new Date(Date.now() + 31 * 60_000))).toBeNull()
    const next = await caller.liveChat.start({ message: 'A new question' })
    expect(next.id).not.toBe(id)
  })

  it('staff end a chat: audited, and the member sees it ended', async () => {
    const { caller } = await member()
    const { id } = await caller.liveChat.start({ message: 'Thanks, that is all' })
    const { caller: editor, user: editorUser } = await staff('editor')
    await editor.admin.liveChat.take({ id })
    await editor.admin.liveChat.end({ id })
    expect((await caller.liveChat.mine()).chat).toMatchObject({ id, endedBy: 'staff' })
    expect(await auditOf(id)).toEqual([
      { action: 'chat.taken', actor_email: editorUser.email },
      { action: 'chat.ended', actor_email: editorUser.email },
    ])
    expect((await wholeQueue(editor, 'closed')).some((chat) => chat.id === id)).toBe(true)
    expect((await wholeQueue(editor, 'open')).some((chat) => chat.id === id)).toBe(false)
  })
})

describe('who is at the desk (decision 0102)', () => {
  /**
   * Whether someone available (`only`: that staff member) marked the desk in the last two minutes; other tests share
   * the DB.
   */
  const othersAtDesk = async (only?: string) => {
    let query = db()
      .selectFrom('chat_desk_presence')
      .select('user_id')
      .where('available', '=', true)
      .where('seen_at', '>', new Date(Date.now() - DESK_PRESENCE_MS))
    if (only) query = query.where('user_id', '=', only)
    return (await query.executeTakeFirst()) !== undefined
  }

  it('the chat says someone is online only while an editor has had the desk open in the last two minutes', async () => {
    const config = { liveChatHours: ALWAYS }
    const later = (ms: number) => new Date(Date.now() + ms)
    // Far from any mark another test left: nobody at the desk.
    expect(await chatAvailability({ db: db(), config }, later(3_600_000))).toMatchObject({ open: true, staffed: false })

    const { caller: editor, user: editorUser } = await staff('editor')
    await editor.admin.liveChat.atDesk()
    const visitor = await callerFor(null)
    expect(await visitor.liveChat.availability()).toMatchObject({ open: true, staffed: true })
    expect((await chatAvailability({ db: db(), config }, later(DESK_PRESENCE_MS - 5_000))).staffed).toBe(true)
    expect((await chatAvailability({ db: db(), config }, later(DESK_PRESENCE_MS + 5_000))).staffed).toBe(false)

    // Stepping away (the desk's "Available for chats" unticked) takes the mark back at once.
    await editor.admin.liveChat.setAvailable({ available: false })
    expect(await othersAtDesk(editorUser.id)).toBe(false)
    expect((await chatAvailability({ db: db(), config })).staffed).toBe(await othersAtDesk())
    await editor.admin.liveChat.setAvailable({ available: true })
    expect(await othersAtDesk(editorUser.id)).toBe(true)

    // Out of the hours nobody is online, whoever has the desk open.
    const closed = { liveChatHours: { days: [], openMinute: 0, closeMinute: 0 } }
    expect(await chatAvailability({ db: db(), config: closed })).toMatchObject({ open: false, staffed: false })
  })
})

describe('“Available for chats” is kept per staff member (decision 0102)', () => {
  it('unticked stays unticked: a return to the desk (its heartbeat) does not make them online again', async () => {
    const { caller: editor, user: editorUser } = await staff('editor', 'Una')
    const { caller: colleague, user: colleagueUser } = await staff('editor', 'Cole')
    const present = async (id: string) =>
      (await db()
        .selectFrom('chat_desk_presence')
        .select('user_id')
        .where('user_id', '=', id)
        .where('available', '=', true)
        .where('seen_at', '>', new Date(Date.now() - DESK_PRESENCE_MS))
        .executeTakeFirst()) !== undefined
    // Never set: available, as the desk first opens.
    expect(await editor.admin.liveChat.availability()).toEqual({ available: true })
    expect(await editor.admin.liveChat.atDesk()).toEqual({ available: true })
    await colleague.admin.liveChat.atDesk()

    await editor.admin.liveChat.setAvailable({ available: false })
    // They come back to /admin/chat later: the desk opens unticked, and its heartbeat keeps them away.
    expect(await editor.admin.liveChat.availability()).toEqual({ available: false })
    expect(await editor.admin.liveChat.atDesk()).toEqual({ available: false })
    expect(await present(editorUser.id)).toBe(false)
    // Only their own choice: the colleague is still at the desk.
    expect(await colleague.admin.liveChat.availability()).toEqual({ available: true })
    expect(await present(colleagueUser.id)).toBe(true)

    // Ticked again: online at once, and kept.
    await editor.admin.liveChat.setAvailable({ available: true })
    expect(await present(editorUser.id)).toBe(true)
    expect(await editor.admin.liveChat.availability()).toEqual({ available: true })
    expect((await chatAvailability({ db: db(), config: { liveChatHours: ALWAYS } })).staffed).toBe(true)
  })
})

describe('the staff queue', () => {
  it('pages: ten chats a page, the latest ended first, each chat on one page only; a page past the end is empty', async () => {
    const { caller: viewer } = await staff('viewer')
    const ended: string[] = []
    for (let i = 0; i < 11; i++) {
      const { caller } = await member()
      const { id } = await caller.liveChat.start({ message: `Question ${i}` })
      await caller.liveChat.end({ id })
      ended.push(id)
    }
    const first = await viewer.admin.liveChat.queue({ status: 'closed', page: 1 })
    expect(first.items).toHaveLength(10)
    expect(first.pageCount).toBe(Math.ceil(first.total / 10))
    expect(first.items.map((row) => row.id)).toEqual(ended.slice(1).reverse())
    const all = await wholeQueue(viewer, 'closed')
    expect(all).toHaveLength(first.total)
    expect(new Set(all.map((row) => row.id)).size).toBe(all.length)
    expect(all.map((row) => row.id)).toContain(ended[0])
    const past = await viewer.admin.liveChat.queue({ status: 'closed', page: first.pageCount + 1 })
    expect(past.items).toEqual([])
    await expect(viewer.admin.liveChat.queue({ status: 'closed', page: 0 })).rejects.toThrow()
  })
})

describe('a chat nobody joined (decision 0101)', () => {
  const chatRow = (id: string) =>
    db()
      .selectFrom('chat_conversations')
      .select(['closed_by', 'assigned_to', 'contact_message_id'])
      .where('id', '=', id)
      .executeTakeFirstOrThrow()
  const inboxMessage = (id: string) =>
    db()
      .selectFrom('contact_messages')
      .select(['user_id', 'subject', 'message', 'support_tier', 'email'])
      .where('id', '=', id)
      .executeTakeFirstOrThrow()

  it('the member leaves it as a message: it ends, the inbox holds what they asked, and they are told when to expect the answer', async () => {
    const { user, caller } = await member()
    const { id } = await caller.liveChat.start({ message: 'How do refunds work?' })
    await caller.liveChat.send({ conversationId: id, body: 'And for bundles?' })

    expect(await caller.liveChat.leaveMessage({ id })).toMatchObject({ id })
    expect((await caller.liveChat.mine()).chat).toMatchObject({ id, endedBy: 'inbox' })
    const row = await chatRow(id)
    expect(row).toMatchObject({ closed_by: 'inbox', assigned_to: null })
    expect(await inboxMessage(row.contact_message_id!)).toEqual({
      user_id: user.id,
      email: user.email,
      subject: CHAT_INBOX_SUBJECT,
      message: 'How do refunds work?\n\nAnd for bundles?',
      support_tier: 'email',
    })
    const mail = await latestMailTo(db(), user.email, 'chat-left-as-message')
    expect(mail?.text_body).toContain('we will answer it by e-mail within 48 hours')
    expect(mail?.text_body).toContain('> And for bundles?')
    const { caller: viewer } = await staff('viewer')
    const inbox = await viewer.admin.support.inbox({ status: 'open', page: 1 })
    expect(inbox.total).toBeGreaterThanOrEqual(1)

    await expect(caller.liveChat.leaveMessage({ id })).rejects.toMatchObject({ code: 'CONFLICT', message: CHAT_ENDED })
  })

  it('once our team has joined, the chat is theirs to answer; another member’s chat is not found', async () => {
    const { caller } = await member()
    const { id } = await caller.liveChat.start({ message: 'Quick one' })
    const other = await member()
    await expect(other.caller.liveChat.leaveMessage({ id })).rejects.toMatchObject({ code: 'NOT_FOUND' })
    const { caller: editor } = await staff('editor')
    await editor.admin.liveChat.reply({ id, body: 'Here now!' })
    await expect(caller.liveChat.leaveMessage({ id })).rejects.toMatchObject({ code: 'CONFLICT', message: CHAT_JOINED })
    expect(await chatRow(id)).toMatchObject({ closed_by: null, contact_message_id: null })
  })

  it('at closing time every chat still waiting goes to the inbox; a taken one stays; during the hours nothing moves', async () => {
    const waiting = await member()
    const { id: waitingId } = await waiting.caller.liveChat.start({ message: 'Still there?' })
    const taken = await member()
    const { id: takenId } = await taken.caller.liveChat.start({ message: 'Help please' })
    const { caller: editor } = await staff('editor')
    await editor.admin.liveChat.take({ id: takenId })

    expect(await passUnjoinedChatsToInbox({ db: db(), config: { liveChatHours: ALWAYS } })).toBe(0)
    expect(await chatRow(waitingId)).toMatchObject({ closed_by: null })

    const CLOSED = { days: [], openMinute: 9 * 60, closeMinute: 17 * 60 }
    expect(await passUnjoinedChatsToInbox({ db: db(), config: { liveChatHours: CLOSED } })).toBeGreaterThanOrEqual(1)
    const passed = await chatRow(waitingId)
    expect(passed.closed_by).toBe('inbox')
    expect(await inboxMessage(passed.contact_message_id!)).toMatchObject({ message: 'Still there?' })
    const mail = await latestMailTo(db(), waiting.user.email, 'chat-left-as-message')
    expect(mail?.text_body).toContain('Nobody from our team could join your live chat before it closed')
    expect(await chatRow(takenId)).toMatchObject({ closed_by: null, contact_message_id: null })
  })

  it('leaving it as a message while staff take it: one of the two wins, never a taken chat in the inbox', async () => {
    for (let round = 0; round < 4; round++) {
      const { caller } = await member()
      const { id } = await caller.liveChat.start({ message: `Race ${round}` })
      const { caller: editor } = await staff('editor')
      // Alternately first to arrive, so each side wins some rounds.
      const leave = () => caller.liveChat.leaveMessage({ id })
      const take = () => editor.admin.liveChat.take({ id })
      const [left, took] =
        round % 2 === 0
          ? await Promise.allSettled([leave(), take()])
          : await Promise.allSettled([take(), leave()]).then(([second, first]) => [first, second] as const)
      expect([left.status, took.status].sort()).toEqual(['fulfilled', 'rejected'])
      const row = await chatRow(id)
      if (left.status === 'fulfilled') {
        expect(row).toMatchObject({ closed_by: 'inbox', assigned_to: null })
        expect(row.contact_message_id).not.toBeNull()
      } else {
        expect(left.reason).toMatchObject({ message: CHAT_JOINED })
        expect(row).toMatchObject({ closed_by: null, contact_message_id: null })
        expect(row.assigned_to).not.toBeNull()
      }
    }
  })
})

describe('whose chat it is', () => {
  it('another member can neither write in, end nor see someone’s chat', async () => {
    const owner = await member()
    const { id } = await owner.caller.liveChat.start({ message: 'My private question' })
    const other = await member()
    await expect(other.caller.liveChat.send({ conversationId: id, body: 'Hello?' })).rejects.toMatchObject({
      code: 'NOT_FOUND',
    })
    await expect(other.caller.liveChat.end({ id })).rejects.toMatchObject({ code: 'NOT_FOUND' })
    expect((await other.caller.liveChat.mine()).chat).toBeNull()
    await expect(other.caller.admin.liveChat.conversation({ id })).rejects.toMatchObject({ code: 'FORBIDDEN' })
  })

  it('a visitor without a chat of their own sees the hours but cannot write in one; a viewer reads the desk but cannot answer', async () => {
    const visitor = await callerFor(null)
    expect(await visitor.liveChat.availability()).toEqual({
      open: true,
      staffed: expect.any(Boolean),
      opensAt: null,
      opens: null,
      hours: { days: 'Every day', times: 'All day (GMT)', summary: 'every day, all day (GMT)' },
    })
    await expect(visitor.liveChat.start({ message: 'Hi' })).rejects.toMatchObject({ code: 'UNAUTHORIZED' })
    expect((await visitor.liveChat.mine()).chat).toBeNull()

    const { caller } = await member()
    const { id } = await caller.liveChat.start({ message: 'Question for the viewer' })
    const refused = { code: 'UNAUTHORIZED', message: CHAT_NO_ASKER }
    await expect(visitor.liveChat.leaveMessage({ id })).rejects.toMatchObject(refused)
    await expect(visitor.liveChat.send({ conversationId: id, body: 'Let me in' })).rejects.toMatchObject(refused)
    await expect(visitor.liveChat.end({ id })).rejects.toMatchObject(refused)
    const { caller: viewer } = await staff('viewer')
    expect((await viewer.admin.liveChat.conversation({ id })).messages).toHaveLength(1)
    await expect(viewer.admin.liveChat.reply({ id, body: 'Hi' })).rejects.toMatchObject({ code: 'FORBIDDEN' })
    await expect(viewer.admin.liveChat.take({ id })).rejects.toMatchObject({ code: 'FORBIDDEN' })
    await expect(viewer.admin.liveChat.end({ id })).rejects.toMatchObject({ code: 'FORBIDDEN' })
  })

  it('a chat one editor holds is refused to another; an admin may take it over', async () => {
    const { caller } = await member()
    const { id } = await caller.liveChat.start({ message: 'Who is there?' })
    const { caller: first } = await staff('editor')
    const { caller: second } = await staff('editor')
    await first.admin.liveChat.take({ id })
    await expect(second.admin.liveChat.take({ id })).rejects.toMatchObject({ code: 'CONFLICT', message: CHAT_TAKEN })
    await expect(second.admin.liveChat.reply({ id, body: 'Me!' })).rejects.toMatchObject({
      code: 'CONFLICT',
      message: CHAT_TAKEN,
    })
    await expect(second.admin.liveChat.end({ id })).rejects.toMatchObject({ code: 'CONFLICT', message: CHAT_TAKEN })
    const { caller: admin, user: adminUser } = await staff('admin')
    await admin.admin.liveChat.take({ id })
    await admin.admin.liveChat.reply({ id, body: 'I am taking over.' })
    expect(await first.admin.liveChat.conversation({ id })).toMatchObject({ assignedTo: adminUser.email })
    await expect(first.admin.liveChat.reply({ id, body: 'Still here' })).rejects.toMatchObject({ code: 'CONFLICT' })
    await admin.admin.liveChat.end({ id })
    expect(await first.admin.liveChat.conversation({ id })).toMatchObject({ endedBy: 'staff' })
  })
})

describe('at the same moment', () => {
  it('two starts at once: one chat holding both messages', async () => {
    const { user, caller } = await member()
    const other = await callerFor(user)
    const results = await Promise.all([
      caller.liveChat.start({ message: 'Sent from the laptop' }),
      other.liveChat.start({ message: 'Sent from the phone' }),
    ])
    expect(results[0].id).toBe(results[1].id)
    const open = await db()
      .selectFrom('chat_conversations')
      .select('id')
      .where('user_id', '=', user.id)
      .where('closed_at', 'is', null)
      .execute()
    expect(open).toHaveLength(1)
    expect((await caller.liveChat.mine()).chat?.messages).toHaveLength(2)
  })

  it('two editors take one chat at once: one holds it, the other is told, one audit entry', async () => {
    const { caller } = await member()
    const { id } = await caller.liveChat.start({ message: 'Anyone?' })
    const [first, second] = await Promise.all([staff('editor'), staff('editor')])
    const results = await Promise.allSettled([
      first.caller.admin.liveChat.take({ id }),
      second.caller.admin.liveChat.take({ id }),
    ])
    expect(results.map((result) => result.status).sort()).toEqual(['fulfilled', 'rejected'])
    const refused = results.find((result) => result.status === 'rejected') as PromiseRejectedResult
    expect(refused.reason).toMatchObject({ code: 'CONFLICT', message: CHAT_TAKEN })
    expect((await auditOf(id)).map((entry) => entry.action)).toEqual(['chat.taken'])
  })
})

describe('the staffed hours and limits', () => {
  it('/contact states the configured hours, not the default’s, whether the chat is open or closed', async () => {
    const hours = parseChatHours('Mon-Sat 08:00-20:00') ?? ALWAYS
    const page = await callerFor(null, hours)
    const words = {
      days: 'Monday-Saturday',
      times: '8:00 AM - 8:00 PM GMT',
      summary: 'Monday to Saturday, 8:00 AM to 8:00 PM GMT',
    }
    expect((await page.liveChat.mine()).availability.hours).toEqual(words)
    const config = { liveChatHours: hours }
    const sunday = new Date('2026-12-06T12:00:00Z')
    expect(await chatAvailability({ db: db(), config }, sunday)).toMatchObject({ open: false, hours: words })
    // Unset: the spec's words.
    expect((await chatAvailability({ db: db(), config: {} }, sunday)).hours).toEqual({
      days: 'Monday-Friday',
      times: '9:00 AM - 5:00 PM GMT',
      summary: 'Monday to Friday, 9:00 AM to 5:00 PM GMT',
    })
  })

  it('outside the hours a new chat is refused with when it opens; an open chat goes on', async () => {
    const { user, caller } = await member()
    const deps = { db: db(), limiter: createMemoryLimiter(), config: { liveChatHours: STAFFED_CHAT_HOURS } }
    const saturday = new Date('2026-12-05T10:00:00Z')
    await expect(startMemberChat(deps, user.id, { message: 'Weekend question' }, saturday)).rejects.toMatchObject({
      kind: 'precondition',
      message: 'Live chat is closed now; it opens Monday at 9:00 AM GMT. Send us a message instead.',
    })
    expect(await db().selectFrom('chat_conversations').select('id').where('user_id', '=', user.id).execute()).toEqual(
      [],
    )
    const monday = new Date('2026-12-07T09:00:00Z')
    const { id } = await startMemberChat(deps, user.id, { message: 'Monday question' }, monday)
    const closed = await callerFor(user, { days: [], openMinute: 0, closeMinute: 1 })
    expect(await closed.liveChat.availability()).toMatchObject({ open: false })
    await closed.liveChat.send({ conversationId: id, body: 'Still here after closing' })
    expect((await caller.liveChat.mine()).chat?.messages).toHaveLength(2)
  })

  it('a member sending too quickly is slowed down', async () => {
    const { user } = await member()
    const { session } = await createSession(db(), user.id)
    const caller = createCaller(
      createContextInner({ db: db(), user, session, config: { ...defaultAppConfig, liveChatHours: ALWAYS } }),
    )
    const { id } = await caller.liveChat.start({ message: 'one' })
    for (let i = 2; i <= 30; i++) await caller.liveChat.send({ conversationId: id, body: `message ${i}` })
    await expect(caller.liveChat.send({ conversationId: id, body: 'too many' })).rejects.toMatchObject({
      code: 'TOO_MANY_REQUESTS',
      message: CHAT_TOO_MANY,
    })
    expect((await caller.liveChat.mine()).chat?.messages).toHaveLength(30)
  })

  it('bad input is refused with a clear error', async () => {
    const { caller } = await member()
    await expect(caller.liveChat.start({ message: '   ' })).rejects.toMatchObject({ code: 'BAD_REQUEST' })
    await expect(caller.liveChat.start({ message: 'x'.repeat(2001) })).rejects.toMatchObject({ code: 'BAD_REQUEST' })
  })
})

describe('privacy', () => {
  it('ended chats go after two years, open ones stay; deleting the member deletes their chats', async () => {
    const { caller } = await member()
    const { id } = await caller.liveChat.start({ message: 'Old chat' })
    await caller.liveChat.end({ id })
    const other = await member()
    const open = await other.caller.liveChat.start({ message: 'Open chat' })
    const counts = await runRetention(db(), new Date(Date.now() + 731 * 24 * 3_600_000))
    expect(counts.chats).toBeGreaterThanOrEqual(1)
    const left = await db().selectFrom('chat_conversations').select('id').where('id', 'in', [id, open.id]).execute()
    expect(left).toEqual([{ id: open.id }])
    await db().deleteFrom('users').where('id', '=', other.user.id).execute()
    expect(
      await db().selectFrom('chat_messages').select('id').where('conversation_id', '=', open.id).execute(),
    ).toEqual([])
  })

  it('a member’s data export holds their chats, every message in them', async () => {
    const { user, caller } = await member()
    const { id } = await caller.liveChat.start({ message: 'Export me' })
    await (await staff('editor', 'Ola')).caller.admin.liveChat.reply({ id, body: 'Done' })
    const files = await collectPersonalData(db(), user.id)
    const chats = JSON.parse(strFromU8(files['live-chats.json'] as Uint8Array))
    expect(chats).toEqual([
      expect.objectContaining({
        id,
        messages: [
          expect.objectContaining({ from: 'You', body: 'Export me' }),
          expect.objectContaining({ from: 'Ola (SkillForge)', body: 'Done' }),
        ],
      }),
    ])
  })
})
