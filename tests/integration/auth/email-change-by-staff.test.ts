// Support moves a customer who lost their old mailbox to another address (decision 0158), through the routers on a real
// database: an admin starts it from the customer page, the link still proves the new mailbox, the old address is told
// at once and can stop it, each step is audited without an address; staff accounts, the same address, a taken address
// and lower roles are refused with nothing mailed.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { SECURITY_MAIL_KINDS } from '../../../src-server/auth/security-mails.ts'
import { EMAIL_CHANGE_MESSAGES, STAFF_EMAIL_CHANGE_MESSAGES } from '../../../src-server/flows/email-change.ts'
import type { DatabaseHandle } from '../../../src-server/kernel/db.ts'
import { latestMailTo } from '../../../src-server/mail/outbox.ts'
import { createTestDatabase } from '../../support/db.ts'
import { callerAs, createUser } from '../../support/factories.ts'
import { trpcRefusal } from '../../support/outcome.ts'

let database: DatabaseHandle
const db = () => database.db

beforeAll(async () => {
  database = await createTestDatabase()
})
afterAll(async () => {
  await database.close()
})

const unique = () => Math.random().toString(36).slice(2, 8)
const staffAs = async (role: 'viewer' | 'editor' | 'admin') => callerAs(db(), await createUser(db(), { role }))

function tokenIn(text: string | undefined) {
  const token = /\/change-email\?token=([a-z0-9]+)/.exec(text ?? '')?.[1]
  if (!token) throw new Error('no change link in the mail')
  return token
}

const refusal = trpcRefusal

const auditOf = (customerId: string) =>
  db()
    .selectFrom('audit_log')
    .select(['action', 'actor_id', 'before', 'after'])
    .where('entity_type', '=', 'user')
    .where('entity_id', '=', customerId)
    .where('action', 'like', 'customer.email_change%')
    .orderBy('created_at')
    .execute()

describe('support moves a customer to another e-mail address', () => {
  it('mails the link to the new address, tells the old one at once, and moves the account when the link is opened', async () => {
    const customer = await createUser(db(), { email: `lost-${unique()}@example.test`, password: 'lost-pass-1!' })
    const newAddress = `Found-${unique()}@Example.test`
    const admins = await staffAs('admin')

    const started = await admins.admin.customers.startEmailChange({ customerId: customer.id, newEmail: newAddress })
    expect(started.message).toBe(STAFF_EMAIL_CHANGE_MESSAGES.sent(newAddress))
    // The customer page and the customer's own card both show the link waiting; nothing moved yet.
    const page = await admins.admin.customers.find({ customer: customer.email })
    expect(page?.emailChange).toMatchObject({ refusal: null, pending: { email: newAddress } })
    expect(page?.account.email).toBe(customer.email)
    expect((await (await callerAs(db(), customer)).profile.emailChange()).pending?.email).toBe(newAddress)

    const link = await latestMailTo(db(), newAddress, 'change_email')
    expect(link?.text_body).toContain('Our support team')
    const notice = await latestMailTo(db(), customer.email, SECURITY_MAIL_KINDS.emailChangeStarted)
    expect(notice?.text_body).toContain(`to Fo•••@Example.test`)
    expect(notice?.text_body).not.toContain(newAddress)
    expect(notice?.text_body).not.toContain('token=')

    const moved = await (await callerAs(db(), null)).profile.confirmEmailChange({ token: tokenIn(link?.text_body) })
    expect(moved.message).toBe(EMAIL_CHANGE_MESSAGES.done(newAddress))
    const after = await admins.admin.customers.find({ customer: newAddress })
    expect(after?.account).toMatchObject({ id: customer.id, email: newAddress, verified: true })
    expect(after?.emailChange.pending).toBeNull()
    expect(await latestMailTo(db(), customer.email, SECURITY_MAIL_KINDS.emailChanged)).toBeDefined()

    // Audited: who started it, about which account, with no address in the entry (an erasure would have to scrub it).
    const entries = await auditOf(customer.id)
    expect(entries.map((entry) => entry.action)).toEqual(['customer.email_change_started'])
    expect(JSON.stringify(entries)).not.toMatch(/@/)
  })

  it('ends the waiting link when support cancels it, and says when none waits', async () => {
    const customer = await createUser(db(), { email: `oops-${unique()}@example.test` })
    const mistyped = `oops-typo-${unique()}@example.test`
    const admins = await staffAs('admin')
    await admins.admin.customers.startEmailChange({ customerId: customer.id, newEmail: mistyped })
    const token = tokenIn((await latestMailTo(db(), mistyped, 'change_email'))?.text_body)

    const cancelled = await admins.admin.customers.cancelEmailChange({ customerId: customer.id })
    expect(cancelled.message).toBe(STAFF_EMAIL_CHANGE_MESSAGES.cancelled)
    const used = await refusal((await callerAs(db(), null)).profile.confirmEmailChange({ token }))
    expect(used.message).toBe(EMAIL_CHANGE_MESSAGES.badLink)
    const again = await refusal(admins.admin.customers.cancelEmailChange({ customerId: customer.id }))
    expect(again.message).toBe(STAFF_EMAIL_CHANGE_MESSAGES.nothingWaiting)
    expect(again.code).toBe('CONFLICT')
    expect((await auditOf(customer.id)).map((entry) => entry.action)).toEqual([
      'customer.email_change_started',
      'customer.email_change_cancelled',
    ])
    expect(
      (await db().selectFrom('users').select('email').where('id', '=', customer.id).executeTakeFirst())?.email,
    ).toBe(customer.email)
  })

  it('lets the customer stop a move they did not ask for, from their own account page', async () => {
    const customer = await createUser(db(), { email: `target-${unique()}@example.test` })
    const attacker = `attacker-${unique()}@example.test`
    await (await staffAs('admin')).admin.customers.startEmailChange({ customerId: customer.id, newEmail: attacker })
    const token = tokenIn((await latestMailTo(db(), attacker, 'change_email'))?.text_body)
    await (await callerAs(db(), customer)).profile.cancelEmailChange()
    const used = await refusal((await callerAs(db(), null)).profile.confirmEmailChange({ token }))
    expect(used.message).toBe(EMAIL_CHANGE_MESSAGES.badLink)
  })

  it('refuses a staff account, the same address, a taken address, an unknown customer and roles below admin, mailing nothing', async () => {
    const admins = await staffAs('admin')
    const newAddress = `nowhere-${unique()}@example.test`
    const customer = await createUser(db(), { email: `kept-${unique()}@example.test` })

    // A support agent must not be able to move an admin's account to a mailbox they read.
    const colleague = await createUser(db(), { role: 'super_admin' })
    const staffAccount = await refusal(
      admins.admin.customers.startEmailChange({ customerId: colleague.id, newEmail: newAddress }),
    )
    expect(staffAccount.code).toBe('FORBIDDEN')
    expect(staffAccount.message).toBe(STAFF_EMAIL_CHANGE_MESSAGES.staffAccount)
    expect((await admins.admin.customers.find({ customer: colleague.email }))?.emailChange.refusal).toBe(
      STAFF_EMAIL_CHANGE_MESSAGES.staffAccount,
    )

    const same = await refusal(
      admins.admin.customers.startEmailChange({ customerId: customer.id, newEmail: customer.email.toUpperCase() }),
    )
    expect(same.code).toBe('BAD_REQUEST')
    expect(same.message).toBe(STAFF_EMAIL_CHANGE_MESSAGES.sameAddress)

    const other = await createUser(db(), { email: `other-${unique()}@example.test` })
    const taken = await refusal(
      admins.admin.customers.startEmailChange({ customerId: customer.id, newEmail: ` ${other.email.toUpperCase()} ` }),
    )
    expect(taken.code).toBe('CONFLICT')
    expect(taken.message).toBe(STAFF_EMAIL_CHANGE_MESSAGES.taken)
    expect(await latestMailTo(db(), other.email)).toBeUndefined()

    const unknown = await refusal(
      admins.admin.customers.startEmailChange({ customerId: crypto.randomUUID(), newEmail: newAddress }),
    )
    expect(unknown.code).toBe('NOT_FOUND')

    for (const role of ['viewer', 'editor'] as const) {
      const lower = await refusal(
        (await staffAs(role)).admin.customers.startEmailChange({ customerId: customer.id, newEmail: newAddress }),
      )
      expect(lower.code).toBe('FORBIDDEN')
    }
    const self = await refusal(
      (await callerAs(db(), customer)).admin.customers.startEmailChange({
        customerId: customer.id,
        newEmail: newAddress,
      }),
    )
    expect(self.code).toBe('FORBIDDEN')

    expect(await latestMailTo(db(), newAddress)).toBeUndefined()
    expect(await latestMailTo(db(), customer.email)).toBeUndefined()
    expect(await auditOf(customer.id)).toEqual([])
  })
})
