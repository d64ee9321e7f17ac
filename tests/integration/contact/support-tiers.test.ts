// The support /pricing promises (decision 0098), through the routers on a real database: a message takes its sender's
// plan tier (Email, Priority email, 24/7 dedicated) and a reply-due time; the staff inbox reads open messages by
// that time and marks them answered once; an Enterprise member's success manager receives their mail.
import type { TRPCError } from '@trpc/server'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ALREADY_ANSWERED, replyToMessage } from '../../../src-server/contact/support-inbox.ts'
import { NOT_ENTERPRISE } from '../../../src-server/flows/support.ts'
import type { DatabaseHandle } from '../../../src-server/kernel/db.ts'
import { deliverOutboxMail } from '../../../src-server/mail/delivery.ts'
import { latestMailTo } from '../../../src-server/mail/outbox.ts'
import type { MailTransport } from '../../../src-server/mail/transport.ts'
import { contactMessage } from '../../support/contact-messages.ts'
import { buyPlan, lapsePlan } from '../../support/creator-courses.ts'
import { createTestDatabase } from '../../support/db.ts'
import { callerAs, createUser, type TestUser } from '../../support/factories.ts'
import { captureLog } from '../../support/jobs.ts'
import { shopCaller } from '../../support/shop.ts'

let database: DatabaseHandle
const db = () => database.db
const STAFF_INBOX = 'support@skillforge.example'
const HOUR = 3_600_000

beforeAll(async () => {
  database = await createTestDatabase()
})
afterAll(async () => {
  await database?.close()
})

const message = (subject: string, email = 'writer@example.test') => ({
  name: 'Writer',
  email,
  subject,
  message: 'Please help me with my account and my courses.',
  agreement: true as const,
})

async function member(plan: 'basic' | 'pro' | 'enterprise' | null) {
  const user = await createUser(db())
  if (plan) await buyPlan(db(), user, plan)
  return user
}

async function send(user: TestUser | null, subject: string) {
  const sentAt = Date.now()
  const { id } = await (await shopCaller(db(), user)).contact.send(message(subject, user?.email))
  const row = await db()
    .selectFrom('contact_messages')
    .select(['user_id', 'support_tier', 'created_at', 'reply_due_at'])
    .where('id', '=', id)
    .executeTakeFirstOrThrow()
  return { id, row, dueInHours: (row.reply_due_at.getTime() - row.created_at.getTime()) / HOUR, sentAt }
}

const staff = async (role: 'viewer' | 'editor' | 'admin') => {
  const user = await createUser(db(), { role })
  return { user, caller: await callerAs(db(), user) }
}

describe('a message takes its sender’s support tier', () => {
  it('a visitor and a Basic member write at the Email tier: due in 48 hours, mailed to the staff address', async () => {
    const visitor = await send(null, 'Visitor question one')
    expect(visitor.row).toMatchObject({ user_id: null, support_tier: 'email' })
    expect(visitor.dueInHours).toBe(48)
    const basic = await member('basic')
    const sent = await send(basic, 'Basic member question')
    expect(sent.row).toMatchObject({ user_id: basic.id, support_tier: 'email' })
    const mail = await latestMailTo(db(), STAFF_INBOX, 'contact-message')
    expect(mail?.subject).toBe('Contact form: Basic member question')
    expect(mail?.text_body).toContain('Support: Email, reply due by')
  })

  it('a member’s support is theirs alone: a visitor is refused, an account without a plan has Email support', async () => {
    await expect((await shopCaller(db(), null)).contact.mySupport()).rejects.toMatchObject({ code: 'UNAUTHORIZED' })
    expect(await (await shopCaller(db(), await member(null))).contact.mySupport()).toEqual({
      tier: 'email',
      label: 'Email',
      replyWithinHours: 48,
      planName: null,
      manager: null,
    })
  })

  it('a Pro member writes at Priority email: due in 24 hours, the subject marked [Priority]', async () => {
    const pro = await member('pro')
    const sent = await send(pro, 'Pro member question')
    expect(sent.row).toMatchObject({ user_id: pro.id, support_tier: 'priority' })
    expect(sent.dueInHours).toBe(24)
    const mail = await latestMailTo(db(), STAFF_INBOX, 'contact-message')
    expect(mail?.subject).toBe('[Priority] Contact form: Pro member question')
    expect(await (await shopCaller(db(), pro)).contact.mySupport()).toMatchObject({
      tier: 'priority',
      label: 'Priority email',
      replyWithinHours: 24,
      planName: 'Pro',
      manager: null,
    })
  })

  it('an Enterprise member is due an answer in 4 hours round the clock; a lapsed plan writes at the Email tier', async () => {
    const enterprise = await member('enterprise')
    const sent = await send(enterprise, 'Enterprise question')
    expect(sent.row.support_tier).toBe('dedicated')
    expect(sent.dueInHours).toBe(4)
    expect((await latestMailTo(db(), STAFF_INBOX, 'contact-message'))?.subject).toBe(
      '[24/7] Contact form: Enterprise question',
    )
    await lapsePlan(db(), enterprise.id)
    expect((await send(enterprise, 'After the lapse')).row.support_tier).toBe('email')
  })
})

describe('dedicated success managers', () => {
  it('admins assign one to an Enterprise member, who sees them and whose messages reach them', async () => {
    const { caller: admin } = await staff('admin')
    const { user: manager } = await staff('editor')
    const enterprise = await member('enterprise')
    await admin.admin.support.assignManager({ memberEmail: enterprise.email.toUpperCase(), managerId: manager.id })

    const support = await (await shopCaller(db(), enterprise)).contact.mySupport()
    expect(support).toMatchObject({ tier: 'dedicated', label: '24/7 dedicated', manager: { email: manager.email } })
    await send(enterprise, 'For my manager')
    const mail = await latestMailTo(db(), manager.email, 'contact-message')
    expect(mail?.subject).toBe('[24/7] Contact form: For my manager')
    expect(mail?.reply_to).toBe(enterprise.email)
    const listed = await admin.admin.support.managers()
    expect(listed.find((row) => row.memberId === enterprise.id)).toMatchObject({ managerEmail: manager.email })
    const audit = await db().selectFrom('audit_log').select('action').where('entity_id', '=', enterprise.id).execute()
    expect(audit.map((row) => row.action)).toContain('support.manager_assigned')

    // Removed: the member's mail goes to the shared staff address again.
    expect(await admin.admin.support.removeManager({ memberId: enterprise.id })).toBe(true)
    expect((await (await shopCaller(db(), enterprise)).contact.mySupport()).manager).toBeNull()
    await send(enterprise, 'After removal')
    expect((await latestMailTo(db(), STAFF_INBOX, 'contact-message'))?.subject).toBe(
      '[24/7] Contact form: After removal',
    )
  })

  it('refuses a member below Enterprise, an unknown address and a manager who is not on the staff', async () => {
    const { caller: admin } = await staff('admin')
    const { user: manager } = await staff('viewer')
    const pro = await member('pro')
    const customer = await createUser(db())
    const refusal = (promise: Promise<unknown>) =>
      promise.then(
        () => null,
        (error: TRPCError) => [error.code, error.message],
      )
    expect(await refusal(admin.admin.support.assignManager({ memberEmail: pro.email, managerId: manager.id }))).toEqual(
      ['PRECONDITION_FAILED', NOT_ENTERPRISE],
    )
    expect(
      await refusal(admin.admin.support.assignManager({ memberEmail: 'nobody@example.test', managerId: manager.id })),
    ).toEqual(['NOT_FOUND', 'No account has that email address'])
    const enterprise = await member('enterprise')
    expect(
      await refusal(admin.admin.support.assignManager({ memberEmail: enterprise.email, managerId: customer.id })),
    ).toEqual(['NOT_FOUND', 'Choose a staff member'])
    expect(
      await db().selectFrom('success_managers').where('member_id', 'in', [pro.id, enterprise.id]).execute(),
    ).toEqual([])
  })

  it('a manager who leaves the staff manages no one: the member’s mail goes to the staff address', async () => {
    const { caller: admin } = await staff('admin')
    const { user: manager } = await staff('editor')
    const enterprise = await member('enterprise')
    await admin.admin.support.assignManager({ memberEmail: enterprise.email, managerId: manager.id })
    await db().updateTable('users').set({ role: 'customer' }).where('id', '=', manager.id).execute()
    expect((await (await shopCaller(db(), enterprise)).contact.mySupport()).manager).toBeNull()
  })
})

describe('the staff support inbox', () => {
  it('reads open messages by reply due time and marks one answered once, with an audit entry', async () => {
    await db().deleteFrom('contact_messages').execute()
    const email = await send(null, 'Email tier, sent first')
    const priority = await send(await member('pro'), 'Priority, sent second')
    const dedicated = await send(await member('enterprise'), 'Dedicated, sent last')
    const { caller: viewer } = await staff('viewer')
    const { user: editorUser, caller: editor } = await staff('editor')

    const open = await viewer.admin.support.inbox({ status: 'open', page: 1 })
    expect(open.items.map((item) => [item.id, item.tier])).toEqual([
      [dedicated.id, 'dedicated'],
      [priority.id, 'priority'],
      [email.id, 'email'],
    ])
    expect(open.total).toBe(3)

    await expect(viewer.admin.support.markAnswered({ id: priority.id })).rejects.toMatchObject({ code: 'FORBIDDEN' })
    await editor.admin.support.markAnswered({ id: priority.id })
    await expect(editor.admin.support.markAnswered({ id: priority.id })).rejects.toMatchObject({
      code: 'CONFLICT',
      message: ALREADY_ANSWERED,
    })
    const after = await viewer.admin.support.inbox({ status: 'open', page: 1 })
    expect(after.items.map((item) => item.id)).toEqual([dedicated.id, email.id])
    const answered = await viewer.admin.support.inbox({ status: 'answered', page: 1 })
    expect(answered.items).toMatchObject([{ id: priority.id, answeredBy: editorUser.email }])
    const audit = await db().selectFrom('audit_log').select('action').where('entity_id', '=', priority.id).execute()
    expect(audit).toEqual([{ action: 'support.answered' }])
  })

  it('two editors pressing Mark answered at once: one answers, the other is told, one audit entry', async () => {
    const sent = await send(null, 'Answered by two at once')
    const [first, second] = await Promise.all([staff('editor'), staff('editor')])
    const results = await Promise.allSettled([
      first.caller.admin.support.markAnswered({ id: sent.id }),
      second.caller.admin.support.markAnswered({ id: sent.id }),
    ])
    expect(results.map((result) => result.status).sort()).toEqual(['fulfilled', 'rejected'])
    const refused = results.find((result) => result.status === 'rejected')
    expect((refused as PromiseRejectedResult).reason).toMatchObject({ code: 'CONFLICT', message: ALREADY_ANSWERED })
    const audit = await db().selectFrom('audit_log').select('action').where('entity_id', '=', sent.id).execute()
    expect(audit).toEqual([{ action: 'support.answered' }])
  })

  it('finds one sender’s messages by their address in any case, open or answered (decision 0154)', async () => {
    const stamp = Date.now()
    const address = `Sender.${stamp}@Example.test`
    const first = await contactMessage(db(), address, 'First question')
    const second = await contactMessage(db(), address.toLowerCase(), 'Second question')
    const answered = await contactMessage(db(), address.toUpperCase(), 'Answered question', { answered: true })
    await contactMessage(db(), `other.${address}`, 'Someone else, whose address ends with it')
    const { caller: viewer } = await staff('viewer')

    const open = await viewer.admin.support.inbox({ status: 'open', page: 1, sender: `  ${address.toUpperCase()} ` })
    expect(open.items.map((item) => item.id).sort()).toEqual([first, second].sort())
    expect(open.total).toBe(2)
    const done = await viewer.admin.support.inbox({ status: 'answered', page: 1, sender: address })
    expect(done.items.map((item) => item.id)).toEqual([answered])
    const nobody = await viewer.admin.support.inbox({ status: 'open', page: 1, sender: `nobody.${stamp}@example.test` })
    expect(nobody).toMatchObject({ items: [], total: 0 })
    await expect(
      viewer.admin.support.inbox({ status: 'open', page: 1, sender: `sender.${stamp}` }),
    ).rejects.toMatchObject({
      code: 'BAD_REQUEST',
      message: expect.stringContaining('Enter a whole e-mail address'),
    })
  })

  it('refuses customers, and a message that does not exist', async () => {
    const customer = await callerAs(db(), await createUser(db()))
    await expect(customer.admin.support.inbox({ status: 'open', page: 1 })).rejects.toMatchObject({ code: 'FORBIDDEN' })
    const { caller: editor } = await staff('editor')
    await expect(editor.admin.support.markAnswered({ id: crypto.randomUUID() })).rejects.toMatchObject({
      code: 'NOT_FOUND',
    })
  })
})

describe('answering from the inbox (decision 0100)', () => {
  it('mails the sender the answer with their message quoted, keeps it, and marks the message answered', async () => {
    const sent = await send(null, 'Where is my invoice?')
    const { user: editor, caller } = await staff('editor')
    await db().updateTable('users').set({ first_name: 'Tomas' }).where('id', '=', editor.id).execute()
    const result = await caller.admin.support.reply({ id: sent.id, body: '  It is under Account, Orders.  ' })

    const mail = await latestMailTo(db(), 'writer@example.test', 'contact-reply')
    expect(mail).toMatchObject({ subject: 'Re: Where is my invoice?', reply_to: STAFF_INBOX })
    expect(mail?.text_body).toContain('Hello Writer,\n\nIt is under Account, Orders.\n\nTomas, SkillForge support')
    expect(mail?.text_body).toContain('> Please help me with my account and my courses.')
    const row = await db()
      .selectFrom('contact_messages')
      .select(['answered_at', 'answered_by'])
      .where('id', '=', sent.id)
      .executeTakeFirstOrThrow()
    expect(row).toEqual({ answered_at: new Date(result.answeredAt), answered_by: editor.id })
    expect(await caller.admin.support.replies({ id: sent.id })).toEqual([
      expect.objectContaining({ body: 'It is under Account, Orders.', sentBy: editor.email }),
    ])
    const audit = await db().selectFrom('audit_log').select('action').where('entity_id', '=', sent.id).execute()
    expect(audit).toEqual([{ action: 'support.replied' }])
  })

  it('a follow-up is kept and mailed too; the first answer’s time and author stay', async () => {
    const sent = await send(null, 'Follow-up wanted')
    const first = await staff('editor')
    const second = await staff('admin')
    const answered = await first.caller.admin.support.reply({ id: sent.id, body: 'First answer' })
    const followUp = await second.caller.admin.support.reply({ id: sent.id, body: 'And one more thing' })
    expect(followUp.answeredAt).toBe(answered.answeredAt)
    const replies = await first.caller.admin.support.replies({ id: sent.id })
    expect(replies.map((reply) => [reply.body, reply.sentBy])).toEqual([
      ['First answer', first.user.email],
      ['And one more thing', second.user.email],
    ])
    const row = await db().selectFrom('contact_messages').select('answered_by').where('id', '=', sent.id).execute()
    expect(row).toEqual([{ answered_by: first.user.id }])
  })

  it('refuses a viewer, an empty answer and a message that does not exist, sending nothing', async () => {
    const sent = await send(null, 'Refusals for answers')
    const { caller: viewer } = await staff('viewer')
    await expect(viewer.admin.support.reply({ id: sent.id, body: 'Hi' })).rejects.toMatchObject({ code: 'FORBIDDEN' })
    expect(await viewer.admin.support.replies({ id: sent.id })).toEqual([])
    const { caller: editor } = await staff('editor')
    await expect(editor.admin.support.reply({ id: sent.id, body: '   ' })).rejects.toMatchObject({
      code: 'BAD_REQUEST',
    })
    await expect(editor.admin.support.reply({ id: crypto.randomUUID(), body: 'Hello' })).rejects.toMatchObject({
      code: 'NOT_FOUND',
    })
    expect(await db().selectFrom('contact_replies').select('id').where('message_id', '=', sent.id).execute()).toEqual(
      [],
    )
  })

  it('two answers at once: both kept and mailed, the message answered once, at the first one’s time', async () => {
    const sent = await send(null, 'Two answers at once')
    const [first, second] = await Promise.all([staff('editor'), staff('editor')])
    const early = new Date(Date.now() + 1_000)
    const late = new Date(Date.now() + 2_000)
    const results = await Promise.all([
      replyToMessage(db(), first.user, sent.id, 'From the first', early),
      replyToMessage(db(), second.user, sent.id, 'From the second', late),
    ])
    const row = await db()
      .selectFrom('contact_messages')
      .select(['answered_at'])
      .where('id', '=', sent.id)
      .executeTakeFirstOrThrow()
    // Both say the time the message was first answered, which is the stored one.
    expect(results.map((result) => result.answeredAt)).toEqual([
      row.answered_at?.toISOString(),
      row.answered_at?.toISOString(),
    ])
    expect(
      await db().selectFrom('contact_replies').select('id').where('message_id', '=', sent.id).execute(),
    ).toHaveLength(2)
  })

  it('each answer shows where its mail stands, from the outbox: queued, then failed (and why) or sent', async () => {
    const sent = await send(null, 'Is my answer delivered?')
    const { caller: editor } = await staff('editor')
    const { caller: viewer } = await staff('viewer')
    // Queued is all the answer can say when it is saved: SMTP may be down.
    expect(await editor.admin.support.reply({ id: sent.id, body: 'First try' })).toMatchObject({ delivery: 'pending' })
    await editor.admin.support.reply({ id: sent.id, body: 'Second try' })
    const mails = await db()
      .selectFrom('contact_replies')
      .select('mail_id')
      .where('message_id', '=', sent.id)
      .orderBy('created_at')
      .orderBy('id')
      .execute()
    const [firstMail, secondMail] = mails.map((row) => row.mail_id as string)
    const states = async () => (await viewer.admin.support.replies({ id: sent.id })).map((reply) => reply.delivery)
    expect(await states()).toEqual([
      { status: 'pending', attempts: 0, problem: null },
      { status: 'pending', attempts: 0, problem: null },
    ])

    // SMTP refuses (the password in the address must not reach the dialog): a try fails, then the last one.
    const refused: MailTransport = {
      kind: 'smtp',
      async send() {
        throw new Error('connect ECONNREFUSED 127.0.0.1:1 (smtp://mailer:hunter2@127.0.0.1:1)')
      },
    }
    const deps = { db: db(), log: captureLog().log, from: 'SkillForge <no-reply@skillforge.example>' }
    const retry = { earliest: new Date(), latest: new Date() }
    await expect(
      deliverOutboxMail({ ...deps, transport: refused }, firstMail as string, { number: 1, of: 2, nextTry: retry }),
    ).rejects.toThrow()
    const [queued] = await states()
    expect(queued).toMatchObject({ status: 'pending', attempts: 1, problem: expect.stringContaining('ECONNREFUSED') })
    await expect(
      deliverOutboxMail({ ...deps, transport: refused }, firstMail as string, { number: 2, of: 2 }),
    ).rejects.toThrow()
    const [failed] = await states()
    expect(failed).toMatchObject({ status: 'failed', attempts: 2, problem: expect.stringContaining('ECONNREFUSED') })
    expect(failed?.problem).not.toContain('hunter2')

    // The other one leaves.
    const delivered: MailTransport = { kind: 'smtp', async send() {} }
    await deliverOutboxMail({ ...deps, transport: delivered }, secondMail as string, { number: 1, of: 2 })
    expect((await states())[1]).toEqual({ status: 'sent', attempts: 1, problem: null })
    // Nothing of the mail itself is in the answer list beyond the answer's own text.
    const listed = JSON.stringify(await viewer.admin.support.replies({ id: sent.id }))
    expect(listed).not.toContain('Please help me with my account')
  })
})
