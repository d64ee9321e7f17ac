// /admin/customers (decision 0155): staff look one customer up by their account's address and get, from each domain's
// own read, the account, the plan, the orders, the courses held now, the service orders and the messages to support;
// another customer's rows never appear, an unknown address is null, a part of one is refused, a customer is refused;
// each look-up that finds an account is audited.
import { strFromU8 } from 'fflate'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { DELETION_CONSEQUENCES, DELETION_MESSAGES } from '../../../src-server/flows/account-deletion.ts'
import { CUSTOMER_NOTE_MESSAGES } from '../../../src-server/flows/customer-notes.ts'
import { collectPersonalData } from '../../../src-server/flows/data-export.ts'
import { markPaid } from '../../../src-server/flows/pay-order.ts'
import type { DatabaseHandle } from '../../../src-server/kernel/db.ts'
import { ORDER_HISTORY_LIMIT } from '../../../src-server/orders/repository.ts'
import { contactMessage } from '../../support/contact-messages.ts'
import { buyPlan } from '../../support/creator-courses.ts'
import { createTestDatabase } from '../../support/db.ts'
import { callerAs, createUser } from '../../support/factories.ts'
import { placeOrder } from '../../support/orders.ts'
import { paidServiceOrder } from '../../support/service-orders.ts'

let database: DatabaseHandle
const db = () => database.db

beforeAll(async () => {
  database = await createTestDatabase()
})
afterAll(async () => {
  await database?.close()
})

async function boughtCourse(userId: string, reference: string) {
  const course = await db()
    .selectFrom('courses')
    .select(['id', 'title', 'price_minor'])
    .where('status', '=', 'published')
    .where('price_minor', '>', 0)
    .orderBy('id')
    .executeTakeFirstOrThrow()
  const orderId = await placeOrder(db(), {
    userId,
    reference,
    courses: [{ id: course.id, title: course.title, price_minor: course.price_minor }],
  })
  await markPaid(db(), orderId, { source: 'staff' })
  return course
}

describe('staff look up one customer', () => {
  it('gathers the account, plan, orders, courses, service orders and messages of that customer alone', async () => {
    const stamp = Date.now()
    const customer = await createUser(db(), { email: `Lookup.${stamp}@Example.test`, firstName: 'Lena' })
    const other = await createUser(db(), { email: `other.${stamp}@example.test` })
    await buyPlan(db(), customer, 'pro')
    const course = await boughtCourse(customer.id, `SF-LOOK${stamp}`)
    await boughtCourse(other.id, `SF-OTHER${stamp}`)
    const serviceOrderId = await paidServiceOrder(db(), customer.id)
    await paidServiceOrder(db(), other.id)
    await contactMessage(db(), customer.email, `Open question ${stamp}`)
    await contactMessage(db(), customer.email.toUpperCase(), `Answered question ${stamp}`, { answered: true })
    await contactMessage(db(), other.email, `Not theirs ${stamp}`)
    const viewer = await callerAs(db(), await createUser(db(), { role: 'viewer' }))

    const found = await viewer.admin.customers.find({ customer: ` lookup.${stamp}@EXAMPLE.test ` })
    expect(found?.account).toMatchObject({ id: customer.id, email: customer.email, role: 'customer' })
    expect(found?.account.name).toContain('Lena')
    expect(found?.membership?.planName).toBe('Pro')
    // The plan's order, the course's and the service's, newest first; none of the other customer's.
    expect(found?.orders.map((order) => order.reference)).toContain(`SF-LOOK${stamp}`)
    expect(found?.orders.map((order) => order.reference)).not.toContain(`SF-OTHER${stamp}`)
    expect(found?.orders).toHaveLength(3)
    expect(found?.orders.find((order) => order.reference === `SF-LOOK${stamp}`)).toMatchObject({
      status: 'paid',
      totalMinor: course.price_minor,
      lines: [course.title],
    })
    expect(found?.courses.map((held) => held.id)).toContain(course.id)
    expect(found?.serviceOrders.map((order) => order.id)).toEqual([serviceOrderId])
    expect(found?.messages.map((sent) => sent.subject).sort()).toEqual(
      [`Answered question ${stamp}`, `Open question ${stamp}`].sort(),
    )
    expect(found?.messageCounts).toEqual({ open: 1, answered: 1 })
    expect(found?.moreOrders).toBe(false)
  })

  it('says when the customer has more orders than the newest it shows', async () => {
    const customer = await createUser(db())
    await db()
      .insertInto('orders')
      .values(
        Array.from({ length: ORDER_HISTORY_LIMIT + 1 }, (_, i) => ({
          user_id: customer.id,
          reference: `SF-MANY${Date.now()}-${i}`,
          currency: 'USD',
          method: 'card' as const,
          // Cancelled: one customer may have only one pending order from the cart.
          status: 'cancelled' as const,
          subtotal_minor: 1000,
          total_minor: 1000,
        })),
      )
      .execute()
    const viewer = await callerAs(db(), await createUser(db(), { role: 'viewer' }))
    const found = await viewer.admin.customers.find({ customer: customer.email })
    expect(found?.orders).toHaveLength(ORDER_HISTORY_LIMIT)
    expect(found?.moreOrders).toBe(true)
  })

  it('answers null for an address no account has, and refuses a part of one', async () => {
    const viewer = await callerAs(db(), await createUser(db(), { role: 'viewer' }))
    expect(await viewer.admin.customers.find({ customer: `nobody.${Date.now()}@example.test` })).toBeNull()
    await expect(viewer.admin.customers.find({ customer: 'lookup.' })).rejects.toMatchObject({
      code: 'BAD_REQUEST',
      message: expect.stringContaining('Enter a whole e-mail address'),
    })
  })

  it('writes each look-up that finds an account to the audit log, naming the staff member and the account id', async () => {
    const customer = await createUser(db())
    const staff = await createUser(db(), { role: 'viewer' })
    const viewer = await callerAs(db(), staff)
    const entries = () =>
      db()
        .selectFrom('audit_log')
        .select(['actor_id', 'actor_email', 'action', 'entity_type', 'entity_id', 'before', 'after'])
        .where('actor_id', '=', staff.id)
        .execute()

    await viewer.admin.customers.find({ customer: `nobody.${Date.now()}@example.test` })
    expect(await entries()).toEqual([])

    await viewer.admin.customers.find({ customer: customer.email.toUpperCase() })
    await viewer.admin.customers.find({ customer: customer.email })
    const written = await entries()
    expect(written).toHaveLength(2)
    for (const entry of written) {
      expect(entry).toEqual({
        actor_id: staff.id,
        actor_email: staff.email,
        action: 'customer.viewed',
        entity_type: 'user',
        entity_id: customer.id,
        // The account id only: no address an erasure would have to scrub.
        before: null,
        after: null,
      })
    }
  })

  it('refuses a customer', async () => {
    const customer = await createUser(db())
    await expect(
      (await callerAs(db(), customer)).admin.customers.find({ customer: customer.email }),
    ).rejects.toMatchObject({ code: 'FORBIDDEN' })
  })

  it('shows the customer’s privacy requests as an admin answers them: the newest export, a deletion, its blockers', async () => {
    const stamp = Date.now()
    const customer = await createUser(db(), { email: `privacy.${stamp}@example.test` })
    const admins = await callerAs(db(), await createUser(db(), { role: 'admin' }))
    const viewers = await callerAs(db(), await createUser(db(), { role: 'viewer' }))
    const privacy = async () => (await viewers.admin.customers.find({ customer: customer.email }))?.privacy

    expect(await privacy()).toEqual({
      latestExport: null,
      deletion: null,
      deletionBlockers: [],
      deletionConsequences: [],
    })
    await admins.privacy.requestExportFor({ userId: customer.id })
    expect((await privacy())?.latestExport).toMatchObject({ status: 'pending', expiresAt: null })
    const { eraseAfter } = await admins.privacy.requestDeletionFor({ userId: customer.id })
    expect((await privacy())?.deletion).toEqual({ eraseAfter: new Date(eraseAfter).toISOString() })
    await admins.privacy.cancelDeletionFor({ userId: customer.id })
    expect((await privacy())?.deletion).toBeNull()

    // A plan that renews stands in the way, in the words the person's own page uses; a held course is what it takes.
    const member = await createUser(db(), { email: `member.${stamp}@example.test` })
    await buyPlan(db(), member, 'pro')
    await boughtCourse(member.id, `SF-PRIV${stamp}`)
    const memberPrivacy = (await viewers.admin.customers.find({ customer: member.email }))?.privacy
    expect(memberPrivacy?.deletionBlockers).toEqual([DELETION_MESSAGES.membership])
    expect(memberPrivacy?.deletionConsequences).toContain(DELETION_CONSEQUENCES.courses(1))
    await expect(admins.privacy.requestDeletionFor({ userId: member.id })).rejects.toThrow(DELETION_MESSAGES.membership)
  })

  it('keeps staff’s notes: editors write them, every role reads them, the author or an admin deletes one, the customer’s export has them', async () => {
    const customer = await createUser(db(), { email: `noted.${Date.now()}@example.test` })
    const editor = await createUser(db(), { role: 'editor' })
    const otherEditor = await createUser(db(), { role: 'editor' })
    const editors = await callerAs(db(), editor)
    const viewers = await callerAs(db(), await createUser(db(), { role: 'viewer' }))

    const first = await editors.admin.customers.addNote({
      customerId: customer.id,
      body: '  Refund agreed on the phone.  ',
    })
    expect(first.notes).toMatchObject([
      { body: 'Refund agreed on the phone.', authorId: editor.id, authorEmail: editor.email },
    ])
    await (await callerAs(db(), otherEditor)).admin.customers.addNote({
      customerId: customer.id,
      body: 'Writes in German.',
    })
    const read = (await viewers.admin.customers.find({ customer: customer.email }))?.notes
    expect(read?.map((note) => note.body)).toEqual(['Writes in German.', 'Refund agreed on the phone.'])

    // A viewer writes none; an empty note is refused; another editor's note is not this editor's to delete.
    await expect(viewers.admin.customers.addNote({ customerId: customer.id, body: 'x' })).rejects.toMatchObject({
      code: 'FORBIDDEN',
    })
    await expect(editors.admin.customers.addNote({ customerId: customer.id, body: '   ' })).rejects.toMatchObject({
      code: 'BAD_REQUEST',
    })
    const theirs = read?.find((note) => note.authorId === otherEditor.id)
    await expect(editors.admin.customers.deleteNote({ noteId: theirs?.id ?? '' })).rejects.toThrow(
      CUSTOMER_NOTE_MESSAGES.notYours,
    )
    const admins = await callerAs(db(), await createUser(db(), { role: 'admin' }))
    expect((await admins.admin.customers.deleteNote({ noteId: theirs?.id ?? '' })).notes).toHaveLength(1)
    await expect(admins.admin.customers.deleteNote({ noteId: theirs?.id ?? '' })).rejects.toThrow(
      CUSTOMER_NOTE_MESSAGES.gone,
    )

    // The customer's data export holds the notes about them, by "Staff", never who.
    const files = await collectPersonalData(db(), customer.id)
    const exported = JSON.parse(strFromU8(files['staff-notes.json'] as Uint8Array))
    expect(exported).toEqual([{ note: 'Refund agreed on the phone.', by: 'Staff', created_at: expect.any(String) }])
    expect(strFromU8(files['staff-notes.json'] as Uint8Array)).not.toContain(editor.email)
  })
})
