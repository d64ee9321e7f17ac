// The contact form over real HTTP: a per-address limit that every call of a batch counts against, batches of at
// most 10 calls, and the sender as Reply-To of the staff notification, all the way to the mail transport.
import { describe, expect, it } from 'vitest'
import { deliverOutboxMail } from '../../../src-server/mail/delivery.ts'
import type { MailTransport } from '../../../src-server/mail/transport.ts'
import { RATE_RULES } from '../../../src-server/security/rate-limit.ts'
import { CONTACT_TOO_MANY } from '../../../src-shared/schemas/contact.ts'
import { trpcPost } from '../../support/http.ts'
import { captureLog } from '../../support/jobs.ts'
import { serveForThisFile } from '../../support/test-server.ts'

const site = serveForThisFile({ env: { TRUST_PROXY: true } })

const message = (email: string) => ({
  name: 'Ada Lovelace',
  email,
  subject: 'Question about courses',
  message: 'Do you offer team licences for ten people?',
  agreement: true,
})

interface TrpcAnswer {
  error?: { message: string; data: { httpStatus: number } }
}

async function sendBatch(emails: string[], from: string) {
  const paths = emails.map(() => 'contact.send').join(',')
  const body = Object.fromEntries(emails.map((email, index) => [String(index), message(email)]))
  const response = await trpcPost(site.baseUrl, `${paths}?batch=1`, body, { 'x-forwarded-for': from })
  return { status: response.status, body: (await response.json()) as TrpcAnswer[] | TrpcAnswer }
}

const storedFrom = async (pattern: string) =>
  (await site.db.selectFrom('contact_messages').select('email').where('email', 'like', pattern).execute()).length

describe('contact.send limits', () => {
  it('stores 5 of a batch of 10 from one address, refuses the rest and the next send', async () => {
    const emails = Array.from({ length: 10 }, (_, i) => `batch-${i}@example.test`)
    const answer = await sendBatch(emails, '198.51.100.7')
    const statuses = (answer.body as TrpcAnswer[]).map((item) => item.error?.data.httpStatus ?? 200).sort()
    const max = RATE_RULES.contact.max
    expect(statuses).toEqual([...Array(max).fill(200), ...Array(10 - max).fill(429)])
    const refused = (answer.body as TrpcAnswer[]).find((item) => item.error)
    expect(refused?.error?.message).toBe(CONTACT_TOO_MANY)
    expect(await storedFrom('batch-%')).toBe(max)
    const queued = await site.db
      .selectFrom('mail_outbox')
      .select('id')
      .where('kind', '=', 'contact-message')
      .where('reply_to', 'like', 'batch-%')
      .execute()
    expect(queued).toHaveLength(max)

    const next = await trpcPost(site.baseUrl, 'contact.send', message('later@example.test'), {
      'x-forwarded-for': '198.51.100.7',
    })
    expect(next.status).toBe(429)
    expect(((await next.json()) as TrpcAnswer).error?.message).toBe(CONTACT_TOO_MANY)
    // Another address may still write.
    const other = await trpcPost(site.baseUrl, 'contact.send', message('other@example.test'), {
      'x-forwarded-for': '198.51.100.8',
    })
    expect(other.status).toBe(200)
    await other.text() // read every answer: one left unread keeps its connection busy and the server from stopping
  })

  it('refuses a batch of 200 with 400, storing and mailing nothing', async () => {
    const emails = Array.from({ length: 200 }, (_, i) => `flood-${i}@example.test`)
    const answer = await sendBatch(emails, '198.51.100.9')
    expect(answer.status).toBe(400)
    expect(JSON.stringify(answer.body)).toContain('Batch call exceeds maximum size')
    expect(await storedFrom('flood-%')).toBe(0)
  })
})

describe('the staff notification', () => {
  it('carries the sender in Reply-To, through the outbox to the transport', async () => {
    const response = await trpcPost(site.baseUrl, 'contact.send', message('Sender@Example.test'), {
      'x-forwarded-for': '198.51.100.20',
    })
    expect(response.status).toBe(200)
    await response.text()
    const sent: Parameters<MailTransport['send']>[0][] = []
    const transport: MailTransport = {
      kind: 'smtp',
      async send(mail) {
        sent.push(mail)
      },
    }
    // What the job queue's mail worker does for each outbox row.
    const deps = { db: site.db, log: captureLog().log, transport, from: 'SkillForge <no-reply@skillforge.example>' }
    const pending = await site.db.selectFrom('mail_outbox').select('id').where('status', '=', 'pending').execute()
    for (const { id } of pending) await deliverOutboxMail(deps, id, { number: 1, of: 1 })
    const notification = sent.find((mail) => mail.text.includes('Sender@Example.test'))
    expect(notification).toMatchObject({
      to: 'support@skillforge.example',
      replyTo: 'Sender@Example.test',
      subject: 'Contact form: Question about courses',
    })
  })
})
