// /admin/outbox through the routers on a real database and the real job queue (fake SMTP): every message with its
// state, one message's body, and Resend of a failed one, which the queue then delivers.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { sendConfirmationCode } from '../../../src-server/auth/confirm-action.ts'
import type { RunningJobs } from '../../../src-server/jobs/start.ts'
import { enqueueMail } from '../../../src-server/mail/outbox.ts'
import { RESEND_ONLY_FAILED } from '../../../src-server/mail/resend.ts'
import { createMailTransport } from '../../../src-server/mail/transport.ts'
import { createTestDatabase, type TestDatabase } from '../../support/db.ts'
import { callerAs, createUser } from '../../support/factories.ts'
import { type FakeSmtp, startFakeSmtp } from '../../support/fake-smtp.ts'
import { captureLog, startMailWorker, waitUntil } from '../../support/jobs.ts'

let database: TestDatabase
let smtp: FakeSmtp
let jobs: RunningJobs

beforeAll(async () => {
  database = await createTestDatabase()
  smtp = await startFakeSmtp('accept')
  jobs = await startMailWorker(database, { smtpUrl: smtp.url, log: captureLog().log, tries: 2 })
})
afterAll(async () => {
  await jobs?.stop()
  await smtp?.close()
  await database?.close()
})

const statusOf = async (id: string) =>
  (await database.db.selectFrom('mail_outbox').select('status').where('id', '=', id).executeTakeFirstOrThrow()).status

async function admin() {
  const user = await createUser(database.db, { role: 'admin' })
  return { user, caller: await callerAs(database.db, user) }
}

describe('the admin outbox', () => {
  it('lists sent and failed messages with the last error and attempts, and shows a body', {
    timeout: 60_000,
  }, async () => {
    const { caller } = await admin()
    smtp.mode = 'accept'
    const sent = await enqueueMail(database.db, {
      kind: 'verify_email',
      to: 'list-sent@example.test',
      subject: 'Verify your email address',
      text: 'Open http://shop.test/verify-email?token=abc123',
    })
    await waitUntil(async () => (await statusOf(sent)) === 'sent')
    smtp.mode = 'reject'
    const failed = await enqueueMail(database.db, {
      kind: 'test',
      to: 'list-failed@example.test',
      subject: 'No',
      text: 'x',
    })
    await waitUntil(async () => (await statusOf(failed)) === 'failed', 30_000)
    smtp.mode = 'accept'

    const all = await caller.admin.outbox.list({ page: 1 })
    const rows = Object.fromEntries(all.items.map((item) => [item.id, item]))
    expect(rows[sent]).toMatchObject({ status: 'sent', to: 'list-sent@example.test', attempts: 1, lastError: null })
    expect(rows[failed]).toMatchObject({ status: 'failed', to: 'list-failed@example.test', subject: 'No', attempts: 2 })
    expect(rows[failed]!.lastError).toContain('451')
    // Newest first.
    expect(all.items.findIndex((item) => item.id === failed)).toBeLessThan(all.items.findIndex((i) => i.id === sent))

    const onlyFailed = await caller.admin.outbox.list({ page: 1, status: 'failed' })
    expect(onlyFailed.items.every((item) => item.status === 'failed')).toBe(true)
    expect(onlyFailed.items.map((item) => item.id)).toContain(failed)

    const body = await caller.admin.outbox.message({ id: sent })
    expect(body).toMatchObject({ subject: 'Verify your email address', to: 'list-sent@example.test' })
    // Delivered by the mail server: the link is the recipient's, its token not shown to staff.
    expect(body.text).toContain('/verify-email?token=[redacted]')
    expect(body.text).not.toContain('abc123')
  })

  it('never shows an admin the reset link mailed to the owner, so an admin cannot take over a higher account', {
    timeout: 60_000,
  }, async () => {
    const { caller } = await admin()
    const owner = await createUser(database.db, { role: 'super_admin', email: 'owner-reset@example.test' })
    smtp.mode = 'accept'
    const visitor = await callerAs(database.db, null)
    await visitor.auth.requestPasswordReset({ email: owner.email })
    const row = await database.db
      .selectFrom('mail_outbox')
      .select(['id', 'text_body'])
      .where('to_address', '=', owner.email)
      .where('kind', '=', 'reset_password')
      .executeTakeFirstOrThrow()
    await waitUntil(async () => (await statusOf(row.id)) === 'sent')
    const token = /reset-password\?token=([A-Za-z0-9_-]+)/.exec(row.text_body)?.[1] as string
    expect(token).toBeTruthy()

    const body = await caller.admin.outbox.message({ id: row.id })
    expect(body.text).toContain('/reset-password?token=[redacted]')
    expect(body.text).not.toContain(token)
  })

  it('never shows an admin, nor a log, the confirmation code mailed to an account without a password', {
    timeout: 60_000,
  }, async () => {
    const { caller } = await admin()
    const member = await createUser(database.db)
    await database.db.updateTable('users').set({ password_hash: null }).where('id', '=', member.id).execute()
    smtp.mode = 'accept'
    await sendConfirmationCode(database.db, member.id, 'delete your account')
    const row = await database.db
      .selectFrom('mail_outbox')
      .select(['id', 'subject', 'text_body'])
      .where('to_address', '=', member.email)
      .executeTakeFirstOrThrow()
    await waitUntil(async () => (await statusOf(row.id)) === 'sent')
    const code = /^ {2}Code: ([a-z2-7]{13})$/m.exec(row.text_body)?.[1] as string
    expect(code).toBeTruthy()

    const body = await caller.admin.outbox.message({ id: row.id })
    expect(body.text).toContain('Your code to confirm: delete your account')
    expect(body.text.split('\n')).toContain('  Code: [redacted]')
    expect(body.text).not.toContain(code)

    // Printed to a log (no SMTP_URL, output not a terminal), the code is hidden too.
    const printed: string[] = []
    const transport = createMailTransport(undefined, captureLog().log, { isTTY: false, write: (t) => printed.push(t) })
    await transport.send({
      from: 'SkillForge <no-reply@skillforge.test>',
      to: member.email,
      subject: row.subject,
      text: row.text_body,
    })
    expect(printed.join('')).toContain('Your code to confirm: delete your account')
    expect(printed.join('')).not.toContain(code)
  })

  it('still shows the link of a message only printed (no SMTP_URL): the newcomer verifies from the outbox', async () => {
    const { caller } = await admin()
    const id = await enqueueMail(database.db, {
      kind: 'verify_email',
      to: 'printed@example.test',
      subject: 'Verify your email address',
      text: 'Open http://shop.test/verify-email?token=printed123',
    })
    await database.db
      .updateTable('mail_outbox')
      .set({ status: 'logged', sent_at: new Date() })
      .where('id', '=', id)
      .execute()
    const body = await caller.admin.outbox.message({ id })
    expect(body.text).toContain('/verify-email?token=printed123')
  })

  it('pages the list, 20 a page', async () => {
    const own = await createTestDatabase()
    try {
      const user = await createUser(own.db, { role: 'super_admin' })
      const caller = await callerAs(own.db, user)
      for (let i = 0; i < 23; i++)
        await enqueueMail(own.db, { kind: 't', to: `p${i}@x.test`, subject: `${i}`, text: '.' })
      const first = await caller.admin.outbox.list({ page: 1 })
      const second = await caller.admin.outbox.list({ page: 2 })
      expect([first.total, first.pageCount, first.items.length, second.items.length]).toEqual([23, 2, 20, 3])
      const ids = new Set([...first.items, ...second.items].map((item) => item.id))
      expect(ids.size).toBe(23)
    } finally {
      await own.close()
    }
  })

  it('finds the mail sent to one address, in any case, with or without a status, and refuses a part of one', async () => {
    const { caller } = await admin()
    const to = `Found.${crypto.randomUUID().slice(0, 8)}@Example.test`
    const first = await enqueueMail(database.db, { kind: 't', to, subject: 'First', text: '.' })
    await enqueueMail(database.db, { kind: 't', to: `other.${to}`, subject: 'Not theirs', text: '.' })
    const second = await enqueueMail(database.db, { kind: 't', to: to.toLowerCase(), subject: 'Second', text: '.' })

    const found = await caller.admin.outbox.list({ page: 1, recipient: `  ${to.toUpperCase()} ` })
    expect(found.total).toBe(2)
    expect(found.items.map((item) => item.id).sort()).toEqual([first, second].sort())
    expect(found.items.every((item) => item.to.toLowerCase() === to.toLowerCase())).toBe(true)
    expect(await caller.admin.outbox.list({ page: 1, recipient: to, status: 'failed' })).toMatchObject({ total: 0 })

    await expect(caller.admin.outbox.list({ page: 1, recipient: 'found.' })).rejects.toMatchObject({
      code: 'BAD_REQUEST',
      message: expect.stringContaining('Enter a whole e-mail address'),
    })
  })

  it('resends a failed message through the queue, once, and records who did it', { timeout: 60_000 }, async () => {
    const { user, caller } = await admin()
    smtp.mode = 'reject'
    const id = await enqueueMail(database.db, { kind: 'test', to: 'resend@example.test', subject: 'Again', text: 'x' })
    await waitUntil(async () => (await statusOf(id)) === 'failed', 30_000)
    smtp.mode = 'accept'
    const deliveredBefore = smtp.deliveries.filter((d) => d.to.includes('<resend@example.test>')).length

    expect(await caller.admin.outbox.resend({ id })).toEqual({ id, status: 'pending' })
    // A second click while it is queued (or once sent) changes nothing.
    await expect(caller.admin.outbox.resend({ id })).rejects.toMatchObject({
      code: 'CONFLICT',
      message: RESEND_ONLY_FAILED,
    })
    await waitUntil(async () => (await statusOf(id)) === 'sent')
    // The first job's dead letter may be worked after the Resend: it must leave the new delivery alone.
    await new Promise((resolve) => setTimeout(resolve, 1500))
    const row = await database.db
      .selectFrom('mail_outbox')
      .select(['attempts', 'last_error', 'job_id'])
      .where('id', '=', id)
      .executeTakeFirstOrThrow()
    expect(row).toMatchObject({ attempts: 1, last_error: null })
    expect(smtp.deliveries.filter((d) => d.to.includes('<resend@example.test>')).length - deliveredBefore).toBe(1)

    const audit = await database.db
      .selectFrom('audit_log')
      .select(['actor_id', 'action'])
      .where('entity_id', '=', id)
      .execute()
    expect(audit).toEqual([{ actor_id: user.id, action: 'mail.resend' }])
  })

  it('refuses Resend for a sent message and an unknown id', async () => {
    const { caller } = await admin()
    smtp.mode = 'accept'
    const id = await enqueueMail(database.db, { kind: 'test', to: 'fine@example.test', subject: 'Ok', text: 'x' })
    await waitUntil(async () => (await statusOf(id)) === 'sent')
    await expect(caller.admin.outbox.resend({ id })).rejects.toMatchObject({ code: 'CONFLICT' })
    await expect(caller.admin.outbox.resend({ id: crypto.randomUUID() })).rejects.toMatchObject({ code: 'NOT_FOUND' })
    await expect(caller.admin.outbox.message({ id: crypto.randomUUID() })).rejects.toMatchObject({ code: 'NOT_FOUND' })
  })
})
