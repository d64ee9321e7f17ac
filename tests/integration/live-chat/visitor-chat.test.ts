// Live chat for visitors who are not signed in (decision 0103), over HTTP on a real database: a visitor names
// themselves and starts a chat, held by an HttpOnly cookie whose token is stored only as a hash; the staff's desk shows
// a visitor and answers; the visitor reads the answer and ends the chat, and nothing is mailed to the address they
// typed; another browser (another cookie, or none) can neither read nor write in it; a chat nobody joined goes to the
// support inbox at the Email tier; starts are limited per client address.
import { describe, expect, it } from 'vitest'
import { createSession } from '../../../src-server/auth/session.ts'
import type { SessionUser } from '../../../src-server/auth/types.ts'
import { CHAT_INBOX_SUBJECT, CHAT_TOO_MANY_STARTS, startVisitorChatAs } from '../../../src-server/flows/live-chat.ts'
import { defaultAppConfig } from '../../../src-server/kernel/config.ts'
import { VISITOR_CHAT_COOKIE, visitorTokenHash } from '../../../src-server/live-chat/visitor-token.ts'
import { createCaller } from '../../../src-server/routers/_app.ts'
import { createMemoryLimiter } from '../../../src-server/security/rate-limit.ts'
import { createContextInner } from '../../../src-server/trpc/context.ts'
import { createUser } from '../../support/factories.ts'
import { cookiePair, setCookieFor, trpcPost } from '../../support/http.ts'
import { serveForThisFile } from '../../support/test-server.ts'

const site = serveForThisFile({ env: { LIVE_CHAT_HOURS: 'Mon-Sun 00:00-24:00' } })

interface Answer {
  result?: { data: unknown }
  error?: { message: string; data?: { code: string } }
}

/** The answer's data, or the test fails with the error it carried. */
function dataOf<T>(answer: Answer): T {
  if (!answer.result) throw new Error(`refused: ${JSON.stringify(answer.error)}`)
  return answer.result.data as T
}

/** A tRPC mutation from a browser holding `cookie` (none: a fresh visitor). */
async function mutate(procedure: string, input: unknown, cookie = '') {
  const response = await trpcPost(site.baseUrl, `liveChat.${procedure}`, input, cookie ? { cookie } : {})
  return { response, answer: (await response.json()) as Answer }
}

/** The browser's chat as the panel asks for it. */
async function mine(cookie = '') {
  const response = await fetch(`${site.baseUrl}/trpc/liveChat.mine`, { headers: cookie ? { cookie } : {} })
  return dataOf<{ chat: Record<string, unknown> | null }>((await response.json()) as Answer).chat
}

async function staffCaller(role: 'editor' | 'viewer') {
  const user: SessionUser = await createUser(site.db, { role, firstName: 'Dana', lastName: 'Desk' })
  const { session } = await createSession(site.db, user.id)
  const config = {
    ...defaultAppConfig,
    liveChatHours: { days: [0, 1, 2, 3, 4, 5, 6], openMinute: 0, closeMinute: 1440 },
  }
  return createCaller(createContextInner({ db: site.db, user, session, config }))
}

/** A visitor starts a chat; returns its id and the "name=value" of the cookie that holds it. */
async function visitorStarts(message: string, email = `visitor-${Date.now().toString(36)}@example.com`) {
  const { response, answer } = await mutate('startAsVisitor', { name: 'Vera Visitor', email, message })
  expect(answer.error).toBeUndefined()
  const setCookie = setCookieFor(response, VISITOR_CHAT_COOKIE)
  return { id: dataOf<{ id: string }>(answer).id, setCookie, cookie: cookiePair(setCookie), email }
}

describe('a visitor’s chat', () => {
  it('starts with a name and an address, is held by an HttpOnly cookie, and is answered by the staff', async () => {
    const { id, setCookie, cookie, email } = await visitorStarts('Do your courses come with certificates?')
    expect(setCookie).toMatch(/HttpOnly/i)
    expect(setCookie).toMatch(/SameSite=Lax/i)
    // Only the token's hash is stored, never the token itself.
    const token = cookie.split('=')[1]!
    const row = await site.db
      .selectFrom('chat_conversations')
      .select(['user_id', 'visitor_name', 'visitor_email', 'visitor_token_hash'])
      .where('id', '=', id)
      .executeTakeFirstOrThrow()
    expect(row).toEqual({
      user_id: null,
      visitor_name: 'Vera Visitor',
      visitor_email: email,
      visitor_token_hash: visitorTokenHash(token),
    })
    expect(row.visitor_token_hash).not.toContain(token)

    expect(await mine(cookie)).toMatchObject({ id, waiting: true, mailed: false })
    const editor = await staffCaller('editor')
    const queue = await editor.admin.liveChat.queue({ status: 'open', page: 1 })
    expect(queue.items.find((chat) => chat.id === id)).toMatchObject({
      visitor: true,
      memberName: 'Vera Visitor',
      memberEmail: email,
    })
    await editor.admin.liveChat.reply({ id, body: 'Yes, every course ends with one.' })
    expect(await mine(cookie)).toMatchObject({
      id,
      waiting: false,
      messages: [
        { body: 'Do your courses come with certificates?', author: 'You' },
        { body: 'Yes, every course ends with one.', author: 'Dana (SkillForge)' },
      ],
    })

    // A second start while the chat is open (another tab) adds to it.
    const again = await mutate('startAsVisitor', { name: 'Vera Visitor', email, message: 'Thanks!' }, cookie)
    expect(again.answer.result?.data).toEqual({ id })
    expect(setCookieFor(again.response, VISITOR_CHAT_COOKIE)).toBeUndefined()

    const ended = await mutate('end', { id }, cookie)
    expect(ended.answer.error).toBeUndefined()
    expect(await mine(cookie)).toMatchObject({ id, endedBy: 'member' })
    // The address is only what the visitor typed: no transcript goes to it.
    const mails = await site.db.selectFrom('mail_outbox').select('kind').where('to_address', '=', email).execute()
    expect(mails).toEqual([])
  })

  it('is the visitor’s alone: another browser, or none, can neither read nor write in it', async () => {
    const owner = await visitorStarts('My private question')
    const other = await visitorStarts('Someone else asking')
    expect(await mine(other.cookie)).toMatchObject({ id: other.id })
    expect(await mine('')).toBeNull()
    // A forged token is simply no one's.
    expect(await mine(`${VISITOR_CHAT_COOKIE}=${'a'.repeat(40)}`)).toBeNull()

    const intruding = await mutate('send', { conversationId: owner.id, body: 'Let me in' }, other.cookie)
    expect(intruding.answer.error?.data?.code).toBe('NOT_FOUND')
    expect((await mutate('end', { id: owner.id }, other.cookie)).answer.error?.data?.code).toBe('NOT_FOUND')
    expect((await mutate('leaveMessage', { id: owner.id }, other.cookie)).answer.error?.data?.code).toBe('NOT_FOUND')
    const anonymous = await mutate('send', { conversationId: owner.id, body: 'Hello?' })
    expect(anonymous.answer.error?.data?.code).toBe('UNAUTHORIZED')
    const messages = await site.db
      .selectFrom('chat_messages')
      .select('body')
      .where('conversation_id', '=', owner.id)
      .execute()
    expect(messages).toEqual([{ body: 'My private question' }])
  })

  it('nobody joined: the visitor leaves it as a message, which the support inbox holds at the Email tier', async () => {
    const { id, cookie, email } = await visitorStarts('Can I pay by invoice?')
    const left = await mutate('leaveMessage', { id }, cookie)
    expect(left.answer.error).toBeUndefined()
    expect(await mine(cookie)).toMatchObject({ id, endedBy: 'inbox', mailed: false })
    const message = await site.db
      .selectFrom('chat_conversations as c')
      .innerJoin('contact_messages as m', 'm.id', 'c.contact_message_id')
      .select(['m.user_id', 'm.name', 'm.email', 'm.subject', 'm.message', 'm.support_tier'])
      .where('c.id', '=', id)
      .executeTakeFirstOrThrow()
    expect(message).toEqual({
      user_id: null,
      name: 'Vera Visitor',
      email,
      subject: CHAT_INBOX_SUBJECT,
      message: 'Can I pay by invoice?',
      support_tier: 'email',
    })
    // Staff are told, as for the contact form; the visitor's typed address is not written to.
    const mails = await site.db.selectFrom('mail_outbox').select('kind').where('to_address', '=', email).execute()
    expect(mails).toEqual([])
  })

  it('refuses bad input with a clear error, and a signed-in member is sent to their own chat', async () => {
    const bad = await mutate('startAsVisitor', { name: 'V', email: 'not-an-address', message: 'Hi' })
    expect(bad.answer.error?.data?.code).toBe('BAD_REQUEST')
    expect(bad.answer.error?.message).toContain('Please enter a valid email address.')
    expect(setCookieFor(bad.response, VISITOR_CHAT_COOKIE)).toBeUndefined()

    const member = await createUser(site.db)
    const { session } = await createSession(site.db, member.id)
    const caller = createCaller(createContextInner({ db: site.db, user: member, session }))
    await expect(
      caller.liveChat.startAsVisitor({ name: 'Mia Member', email: member.email, message: 'Hello' }),
    ).rejects.toMatchObject({ code: 'PRECONDITION_FAILED' })
  })
})

it('a client address starts at most five visitor chats an hour', async () => {
  const deps = {
    db: site.db,
    limiter: createMemoryLimiter(),
    config: { ...defaultAppConfig, liveChatHours: { days: [0, 1, 2, 3, 4, 5, 6], openMinute: 0, closeMinute: 1440 } },
    clientIp: '203.0.113.9',
    user: null,
  }
  const input = { name: 'Sam Spammer', email: 'sam@example.com', message: 'Buy my stuff' }
  for (let i = 0; i < 5; i++) await startVisitorChatAs(deps, input)
  await expect(startVisitorChatAs(deps, input)).rejects.toMatchObject({ message: CHAT_TOO_MANY_STARTS })
  // Another address is not held back by the first.
  await expect(startVisitorChatAs({ ...deps, clientIp: '203.0.113.10' }, input)).resolves.toMatchObject({
    id: expect.any(String),
  })
})
