// The service-order workflow through the routers (createCaller) on a real database: the state machine as a table,
// briefs (drafts, submission, the lock, reopening), the due-date rule, every role rule, the thread and its
// e-mails and unread counts, deliveries and the revision allowance, and the scheduled auto-completion.
import { TRPCError } from '@trpc/server'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { intakeForms } from '../../../db/seed/data/intake-forms.ts'
import { services as seededServices } from '../../../db/seed/data/services.ts'
import type { ServiceOrderStatus } from '../../../db/types.ts'
import { handlers } from '../../../src-server/jobs/registry.ts'
import type { DatabaseHandle } from '../../../src-server/kernel/db.ts'
import { dashboardCounts } from '../../../src-server/reports/dashboard.ts'
import { addBusinessDays } from '../../../src-server/service-orders/due.ts'
import {
  canTransition,
  moveServiceOrder,
  SERVICE_ORDER_TRANSITIONS,
  type ServiceOrderTransition,
} from '../../../src-server/service-orders/transitions.ts'
import { SERVICE_ORDER_STATUSES } from '../../../src-shared/service-orders.ts'
import { createTestDatabase } from '../../support/db.ts'
import { callerAs, createUser } from '../../support/factories.ts'
import { raceIt, whileRowHeld } from '../../support/race.ts'
import { paidServiceOrder, ukBrief, ukDirector } from '../../support/service-orders.ts'

let database: DatabaseHandle
beforeAll(async () => {
  database = await createTestDatabase()
})
afterAll(async () => {
  await database.close()
})
const db = () => database.db

async function codeOf(promise: Promise<unknown>): Promise<string> {
  try {
    await promise
    return 'OK'
  } catch (error) {
    expect(error).toBeInstanceOf(TRPCError)
    return (error as TRPCError).code
  }
}

const statusOf = async (id: string) =>
  (await db().selectFrom('service_orders').select('status').where('id', '=', id).executeTakeFirstOrThrow()).status

const mails = (to: string, kind?: string) =>
  db()
    .selectFrom('mail_outbox')
    .select(['kind', 'subject', 'text_body'])
    .where('to_address', '=', to)
    .$if(kind !== undefined, (q) => q.where('kind', '=', kind as string))
    .orderBy('created_at')
    .execute()

/** A buyer with a paid UK formation order, and a staff member of each role. */
async function scene(serviceId = 'uk-company-formation', packageName = 'Standard') {
  const buyer = await createUser(db())
  const id = await paidServiceOrder(db(), buyer.id, serviceId, packageName)
  const staff = async (role: 'viewer' | 'editor' | 'admin') => {
    const user = await createUser(db(), { role })
    return { user, caller: await callerAs(db(), user) }
  }
  return { buyer, id, shopper: await callerAs(db(), buyer), staff }
}

/** An order moved as far as `delivered` by an editor. */
async function delivered(serviceId?: string, packageName?: string) {
  const s = await scene(serviceId, packageName)
  await s.shopper.serviceOrders.submitBrief({ id: s.id, brief: ukBrief })
  const editor = await s.staff('editor')
  await editor.caller.admin.serviceOrders.start({ id: s.id })
  await editor.caller.admin.serviceOrders.deliver({ id: s.id, note: 'Your certificate', fileIds: [] })
  return { ...s, editor }
}

describe('the seed', () => {
  it('gives every seeded service its intake form and every package its revisions and processing days', async () => {
    const rows = await db().selectFrom('services').select(['id', 'intake_form']).execute()
    for (const service of seededServices) {
      const row = rows.find((r) => r.id === service.id)
      expect(row?.intake_form, service.id).toEqual(intakeForms[service.id])
    }
    const packages = await db()
      .selectFrom('service_packages')
      .select(['service_id', 'name', 'revisions', 'processing_days'])
      .execute()
    for (const service of seededServices) {
      for (const pkg of service.packages) {
        expect(packages.find((p) => p.service_id === service.id && p.name === pkg.name)).toMatchObject({
          revisions: pkg.revisions,
        })
      }
    }
    expect(packages.find((p) => p.name === 'Growth Roadmap')?.processing_days).toBe(14)
  })
})

describe('the state machine', () => {
  // Every (status, transition) pair: true where the transition may leave that status. Written out as a table so a
  // change to the machine has to change this table too.
  const ALLOWED: Record<ServiceOrderTransition, ServiceOrderStatus[]> = {
    submitBrief: ['brief_needed'],
    reopenBrief: ['submitted', 'in_progress'],
    start: ['submitted', 'revision_requested'],
    deliver: ['in_progress', 'revision_requested'],
    requestRevision: ['delivered'],
    accept: ['delivered'],
    autoComplete: ['delivered'],
    close: ['brief_needed', 'submitted', 'in_progress', 'delivered', 'revision_requested'],
    cancel: ['brief_needed', 'submitted', 'in_progress', 'delivered', 'revision_requested'],
  }
  const TARGET: Record<ServiceOrderTransition, ServiceOrderStatus> = {
    submitBrief: 'submitted',
    reopenBrief: 'brief_needed',
    start: 'in_progress',
    deliver: 'delivered',
    requestRevision: 'revision_requested',
    accept: 'completed',
    autoComplete: 'completed',
    close: 'completed',
    cancel: 'cancelled',
  }

  it('allows exactly the transitions of the table, to the table’s targets', () => {
    expect(Object.keys(SERVICE_ORDER_TRANSITIONS).sort()).toEqual(Object.keys(ALLOWED).sort())
    for (const transition of Object.keys(ALLOWED) as ServiceOrderTransition[]) {
      expect(SERVICE_ORDER_TRANSITIONS[transition].to).toBe(TARGET[transition])
      for (const status of SERVICE_ORDER_STATUSES) {
        expect([transition, status, canTransition(status, transition)]).toEqual([
          transition,
          status,
          ALLOWED[transition].includes(status),
        ])
      }
    }
    // Completed and cancelled are final.
    for (const status of ['completed', 'cancelled'] as const) {
      expect(Object.keys(ALLOWED).filter((t) => canTransition(status, t as ServiceOrderTransition))).toEqual([])
    }
  })

  it('writes the status only from an allowed one, and records each change in the history', async () => {
    const { id, buyer } = await scene()
    expect(
      await db()
        .transaction()
        .execute((trx) => moveServiceOrder(trx, id, 'deliver', null)),
    ).toBeNull()
    expect(await statusOf(id)).toBe('brief_needed')
    expect(
      await db()
        .transaction()
        .execute((trx) => moveServiceOrder(trx, id, 'submitBrief', buyer.id)),
    ).toBe('brief_needed')
    expect(await statusOf(id)).toBe('submitted')
    const history = await db()
      .selectFrom('service_order_events')
      .select(['from_status', 'to_status', 'actor_id'])
      .where('service_order_id', '=', id)
      .orderBy('created_at')
      .execute()
    expect(history).toEqual([
      { from_status: null, to_status: 'brief_needed', actor_id: null },
      { from_status: 'brief_needed', to_status: 'submitted', actor_id: buyer.id },
    ])
  })

  it('opens a paid package as "Brief needed" with the package’s processing days and revisions', async () => {
    const { id, shopper } = await scene('uk-company-formation', 'Premium')
    const order = await db()
      .selectFrom('service_orders')
      .select(['status', 'service_id', 'processing_days', 'revisions_allowed'])
      .where('id', '=', id)
      .executeTakeFirstOrThrow()
    expect(order).toEqual({
      status: 'brief_needed',
      service_id: 'uk-company-formation',
      processing_days: 4,
      revisions_allowed: 2,
    })
    const mine = await shopper.serviceOrders.mine()
    expect(mine).toMatchObject([{ id, status: 'brief_needed', dueAt: null, unread: 0 }])
  })
})

describe('the brief', () => {
  it('keeps a draft with unfinished answers, refuses an incomplete submission and keeps what was typed', async () => {
    const { id, shopper } = await scene()
    const partial = { proposedName: 'Half Done Ltd', people: [{ fullName: 'Ada', personalCode: 'short' }] }
    await shopper.serviceOrders.saveDraft({ id, brief: partial })
    expect((await shopper.serviceOrders.detail({ id })).brief).toEqual(partial)

    expect(await codeOf(shopper.serviceOrders.submitBrief({ id, brief: partial }))).toBe('BAD_REQUEST')
    expect(await statusOf(id)).toBe('brief_needed')
    expect((await shopper.serviceOrders.detail({ id })).brief).toEqual(partial)

    // A bad personal code alone is enough to refuse.
    const badCode = { ...ukBrief, people: [{ ...ukDirector, personalCode: 'AB12' }] }
    expect(await codeOf(shopper.serviceOrders.submitBrief({ id, brief: badCode }))).toBe('BAD_REQUEST')
    // A required answer left out entirely.
    const { shareCapital: _left, ...noCapital } = ukBrief
    expect(await codeOf(shopper.serviceOrders.submitBrief({ id, brief: noCapital }))).toBe('BAD_REQUEST')
    // A company needs a director.
    const noDirector = { ...ukBrief, people: [{ ...ukDirector, isDirector: false }] }
    expect(await codeOf(shopper.serviceOrders.submitBrief({ id, brief: noDirector }))).toBe('BAD_REQUEST')
    // A draft of the wrong shape is refused (nothing else is checked in a draft).
    expect(await codeOf(shopper.serviceOrders.saveDraft({ id, brief: { people: 'not a list' } }))).toBe('BAD_REQUEST')
  })

  it('locks the brief once submitted, until staff reopen it', async () => {
    const { id, shopper, staff } = await scene()
    await shopper.serviceOrders.submitBrief({ id, brief: ukBrief })
    expect(await statusOf(id)).toBe('submitted')
    expect(await codeOf(shopper.serviceOrders.saveDraft({ id, brief: ukBrief }))).toBe('CONFLICT')
    expect(await codeOf(shopper.serviceOrders.submitBrief({ id, brief: ukBrief }))).toBe('CONFLICT')

    const editor = await staff('editor')
    await editor.caller.admin.serviceOrders.reopenBrief({ id })
    expect(await statusOf(id)).toBe('brief_needed')
    await shopper.serviceOrders.saveDraft({ id, brief: { ...ukBrief, proposedName: 'Renamed Ltd' } })
    await shopper.serviceOrders.submitBrief({ id, brief: { ...ukBrief, proposedName: 'Renamed Ltd' } })
    expect((await shopper.serviceOrders.detail({ id })).brief).toMatchObject({ proposedName: 'Renamed Ltd' })
    const audit = await db().selectFrom('audit_log').select('action').where('entity_id', '=', id).execute()
    expect(audit.map((row) => row.action)).toEqual(['service_order.reopenBrief'])
  })

  it('validates a URL on the SEO forms', async () => {
    const { id, shopper } = await scene('seo-audit', 'Essential Audit')
    const brief = { websiteUrl: 'not a url', targetMarkets: ['United Kingdom'], analyticsAccess: 'No analytics yet' }
    expect(await codeOf(shopper.serviceOrders.submitBrief({ id, brief }))).toBe('BAD_REQUEST')
    await shopper.serviceOrders.submitBrief({ id, brief: { ...brief, websiteUrl: 'https://shop.example.com' } })
    expect(await statusOf(id)).toBe('submitted')
  })
})

describe('the due date', () => {
  it('counts the package’s business days from submission, not from purchase', async () => {
    const { id, shopper } = await scene() // Standard: 1-3 business days
    // Bought ten days ago; the brief came only now: the wait for it does not count.
    await db()
      .updateTable('service_orders')
      .set({ created_at: new Date(Date.now() - 10 * 86_400_000) } as never)
      .where('id', '=', id)
      .execute()
    const before = Date.now()
    await shopper.serviceOrders.submitBrief({ id, brief: ukBrief })
    const row = await db()
      .selectFrom('service_orders')
      .select(['brief_submitted_at', 'due_at'])
      .where('id', '=', id)
      .executeTakeFirstOrThrow()
    const submitted = row.brief_submitted_at as Date
    expect(submitted.getTime()).toBeGreaterThanOrEqual(before - 1000)
    expect(row.due_at?.toISOString()).toBe(addBusinessDays(submitted, 3).toISOString())
    expect((await shopper.serviceOrders.mine())[0]?.dueAt).toBe(row.due_at?.toISOString())
  })

  it('skips weekends', () => {
    const friday = new Date('2026-11-27T10:00:00Z')
    expect(addBusinessDays(friday, 1).toISOString()).toBe('2026-11-30T10:00:00.000Z')
    expect(addBusinessDays(friday, 3).toISOString()).toBe('2026-12-02T10:00:00.000Z')
  })

  it('counts overdue orders in the queue and on the dashboard, and orders awaiting their brief', async () => {
    const before = await dashboardCounts(db())
    const { id, shopper, staff } = await scene()
    await scene() // another one waiting for its brief
    await shopper.serviceOrders.submitBrief({ id, brief: ukBrief })
    await db()
      .updateTable('service_orders')
      .set({ due_at: new Date(Date.now() - 3_600_000) })
      .where('id', '=', id)
      .execute()
    const after = await dashboardCounts(db())
    expect(after.serviceOrdersOverdue - before.serviceOrdersOverdue).toBe(1)
    expect(after.serviceOrdersAwaitingBrief - before.serviceOrdersAwaitingBrief).toBe(1)
    const viewer = await staff('viewer')
    const overdue = await viewer.caller.admin.serviceOrders.list({ overdue: true })
    expect(overdue.items.map((item) => item.id)).toContain(id)
    expect(overdue.items.every((item) => item.overdue)).toBe(true)
    expect(overdue.counts.overdue).toBe(after.serviceOrdersOverdue)
  })
})

describe('finding a customer’s service orders', () => {
  it('lists the orders of the buyer with an address, in any case, with the other filters, and refuses a part of one', async () => {
    const { id, buyer, staff } = await scene()
    const second = await paidServiceOrder(db(), buyer.id, 'uk-company-formation', 'Standard')
    await scene() // another buyer's order
    const viewer = await staff('viewer')
    const found = await viewer.caller.admin.serviceOrders.list({ buyer: ` ${buyer.email.toUpperCase()} ` })
    expect(found.items.map((item) => item.id).sort()).toEqual([id, second].sort())
    expect(found.total).toBe(2)
    const delivered = await viewer.caller.admin.serviceOrders.list({ buyer: buyer.email, status: 'delivered' })
    expect(delivered.items).toEqual([])
    expect(await codeOf(viewer.caller.admin.serviceOrders.list({ buyer: 'not-an-address' }))).toBe('BAD_REQUEST')
  })
})

describe('who may do what', () => {
  it('shows a buyer nothing of another buyer’s order', async () => {
    const { id, buyer } = await scene()
    const other = await callerAs(db(), await createUser(db()))
    expect(await codeOf(other.serviceOrders.detail({ id }))).toBe('NOT_FOUND')
    expect(await codeOf(other.serviceOrders.saveDraft({ id, brief: {} }))).toBe('NOT_FOUND')
    expect(await codeOf(other.serviceOrders.submitBrief({ id, brief: ukBrief }))).toBe('NOT_FOUND')
    expect(await codeOf(other.serviceOrders.sendMessage({ id, body: 'hello' }))).toBe('NOT_FOUND')
    expect(await codeOf(other.serviceOrders.acceptDelivery({ id }))).toBe('NOT_FOUND')
    expect(await codeOf(other.serviceOrders.requestRevision({ id, details: 'x' }))).toBe('NOT_FOUND')
    expect((await other.serviceOrders.mine()).map((o) => o.id)).not.toContain(id)
    // Shoppers never reach the staff procedures.
    const own = await callerAs(db(), buyer)
    expect(await codeOf(own.admin.serviceOrders.detail({ id }))).toBe('FORBIDDEN')
    expect(await codeOf(own.admin.serviceOrders.list({}))).toBe('FORBIDDEN')
    expect(await codeOf((await callerAs(db(), null)).serviceOrders.mine())).toBe('UNAUTHORIZED')
  })

  it('lets viewers read but not work; editors work but not assign or cancel; admins do both', async () => {
    const { id, shopper, staff } = await scene()
    await shopper.serviceOrders.submitBrief({ id, brief: ukBrief })
    const viewer = await staff('viewer')
    const editor = await staff('editor')
    const admin = await staff('admin')

    expect((await viewer.caller.admin.serviceOrders.detail({ id })).status).toBe('submitted')
    expect(await codeOf(viewer.caller.admin.serviceOrders.start({ id }))).toBe('FORBIDDEN')
    expect(await codeOf(viewer.caller.admin.serviceOrders.sendMessage({ id, body: 'hi' }))).toBe('FORBIDDEN')

    await editor.caller.admin.serviceOrders.start({ id })
    expect(await codeOf(viewer.caller.admin.serviceOrders.deliver({ id, note: 'x' }))).toBe('FORBIDDEN')
    expect(await codeOf(editor.caller.admin.serviceOrders.assign({ id, assigneeId: editor.user.id }))).toBe('FORBIDDEN')
    expect(await codeOf(editor.caller.admin.serviceOrders.cancel({ id }))).toBe('FORBIDDEN')

    await admin.caller.admin.serviceOrders.assign({ id, assigneeId: editor.user.id })
    expect((await viewer.caller.admin.serviceOrders.list({ assignee: editor.user.id })).items.map((o) => o.id)).toEqual(
      [id],
    )
    // Only team members can be assignees.
    // Only team members who can work the order (editors and up) can own it.
    const customer = await createUser(db())
    expect(await codeOf(admin.caller.admin.serviceOrders.assign({ id, assigneeId: customer.id }))).toBe('BAD_REQUEST')
    expect(await codeOf(admin.caller.admin.serviceOrders.assign({ id, assigneeId: viewer.user.id }))).toBe(
      'BAD_REQUEST',
    )

    await editor.caller.admin.serviceOrders.deliver({ id, note: 'Done', fileIds: [] })
    await admin.caller.admin.serviceOrders.cancel({ id })
    expect(await statusOf(id)).toBe('cancelled')
    expect(await codeOf(shopper.serviceOrders.sendMessage({ id, body: 'Why?' }))).toBe('CONFLICT')
    const audit = await db()
      .selectFrom('audit_log')
      .select(['action', 'actor_id'])
      .where('entity_id', '=', id)
      .orderBy('created_at')
      .execute()
    expect(audit).toEqual([
      { action: 'service_order.start', actor_id: editor.user.id },
      { action: 'service_order.assign', actor_id: admin.user.id },
      { action: 'service_order.deliver', actor_id: editor.user.id },
      { action: 'service_order.cancel', actor_id: admin.user.id },
    ])
  })

  it('offers each staff action only from the right status', async () => {
    const { id, shopper, staff } = await scene()
    const admin = await staff('admin')
    expect(await codeOf(admin.caller.admin.serviceOrders.start({ id }))).toBe('CONFLICT')
    expect(await codeOf(admin.caller.admin.serviceOrders.deliver({ id, note: 'x' }))).toBe('CONFLICT')
    expect((await admin.caller.admin.serviceOrders.detail({ id })).actions).toEqual(['submitBrief', 'cancel'])
    await shopper.serviceOrders.submitBrief({ id, brief: ukBrief })
    expect(await codeOf(admin.caller.admin.serviceOrders.deliver({ id, note: 'x' }))).toBe('CONFLICT')
    await admin.caller.admin.serviceOrders.cancel({ id })
    expect(await codeOf(admin.caller.admin.serviceOrders.cancel({ id }))).toBe('CONFLICT')
    expect(await codeOf(admin.caller.admin.serviceOrders.start({ id }))).toBe('CONFLICT')
  })
})

describe('an assignee who leaves the team', () => {
  it('is taken off their open orders when removed or made a viewer, so the mail goes to the team', async () => {
    const { id, buyer, shopper, staff } = await scene()
    const leaver = await staff('editor')
    const demoted = await staff('editor')
    const admin = await staff('admin')
    const second = await paidServiceOrder(db(), buyer.id)
    const done = await paidServiceOrder(db(), buyer.id)
    await admin.caller.admin.serviceOrders.assign({ id, assigneeId: leaver.user.id })
    await admin.caller.admin.serviceOrders.assign({ id: done, assigneeId: leaver.user.id })
    await admin.caller.admin.serviceOrders.assign({ id: second, assigneeId: demoted.user.id })
    await admin.caller.admin.serviceOrders.cancel({ id: done, refund: false })

    await admin.caller.admin.team.remove({ userId: leaver.user.id })
    await admin.caller.admin.team.changeRole({ userId: demoted.user.id, role: 'viewer' })

    // Open orders go back to the queue's Unassigned; a finished one keeps who worked it.
    expect((await admin.caller.admin.serviceOrders.detail({ id })).assigneeId).toBeNull()
    expect((await admin.caller.admin.serviceOrders.detail({ id: second })).assigneeId).toBeNull()
    expect((await admin.caller.admin.serviceOrders.detail({ id: done })).assigneeId).toBe(leaver.user.id)
    const unassigned = (await admin.caller.admin.serviceOrders.list({ assignee: 'none' })).items.map((o) => o.id)
    expect(unassigned).toEqual(expect.arrayContaining([id, second]))

    // The buyer's next message is no longer e-mailed to someone who left the team.
    await shopper.serviceOrders.sendMessage({ id, body: 'Is anyone on this?' })
    await shopper.serviceOrders.sendMessage({ id: second, body: 'And this one?' })
    expect(await mails(leaver.user.email, 'service-order-message')).toEqual([])
    expect(await mails(demoted.user.email, 'service-order-message')).toEqual([])

    const audit = await db()
      .selectFrom('audit_log')
      .select(['action', 'entity_id'])
      .where('action', '=', 'service_order.assign')
      .where('actor_id', '=', admin.user.id)
      .where('entity_id', 'in', [id, second])
      .orderBy('created_at')
      .execute()
    expect(audit.map((row) => row.entity_id)).toEqual([id, second, id, second])
  })
})

describe('the thread', () => {
  it('e-mails the other side, counts unread messages and keeps internal notes from the buyer', async () => {
    const { id, buyer, shopper, staff } = await scene()
    const editor = await staff('editor')
    const admin = await staff('admin')
    await admin.caller.admin.serviceOrders.assign({ id, assigneeId: editor.user.id })

    await shopper.serviceOrders.sendMessage({ id, body: 'Can you use my home address?' })
    expect((await mails(editor.user.email, 'service-order-message')).map((m) => m.text_body)).toEqual([
      expect.stringContaining('Can you use my home address?'),
    ])
    const queue = await editor.caller.admin.serviceOrders.list({})
    expect(queue.items.find((item) => item.id === id)?.unread).toBe(1)

    // Loading the order marks nothing (the router loads it when its link is only hovered); the page, once it shows
    // the thread, marks it read.
    await editor.caller.admin.serviceOrders.detail({ id })
    expect((await editor.caller.admin.serviceOrders.list({})).items.find((item) => item.id === id)?.unread).toBe(1)
    await editor.caller.admin.serviceOrders.markRead({ id })
    expect((await editor.caller.admin.serviceOrders.list({})).items.find((item) => item.id === id)?.unread).toBe(0)
    // Then staff answer, and leave a note the buyer never sees.
    await editor.caller.admin.serviceOrders.sendMessage({ id, body: 'Yes, that works.' })
    await editor.caller.admin.serviceOrders.sendMessage({ id, body: 'Buyer seems unsure', internal: true })
    expect((await mails(buyer.email, 'service-order-message')).map((m) => m.text_body)).toEqual([
      expect.stringContaining('Yes, that works.'),
    ])
    expect(await shopper.serviceOrders.unread()).toBe(1)
    expect((await shopper.serviceOrders.mine())[0]?.unread).toBe(1)

    const seen = await shopper.serviceOrders.detail({ id })
    expect(seen.messages.map((m) => [m.fromStaff, m.body])).toEqual([
      [false, 'Can you use my home address?'],
      [true, 'Yes, that works.'],
    ])
    expect(JSON.stringify(seen)).not.toContain('Buyer seems unsure')
    expect(await shopper.serviceOrders.unread()).toBe(1)
    expect((await shopper.serviceOrders.mine())[0]?.unread).toBe(1)
    // Another buyer cannot mark it (not found); its own buyer does, from the page.
    const stranger = await callerAs(db(), await createUser(db()))
    await expect(stranger.serviceOrders.markRead({ id })).rejects.toMatchObject({ code: 'NOT_FOUND' })
    expect(await shopper.serviceOrders.unread()).toBe(1)
    await shopper.serviceOrders.markRead({ id })
    expect(await shopper.serviceOrders.unread()).toBe(0)
    expect((await shopper.serviceOrders.mine())[0]?.unread).toBe(0)
    const staffView = await editor.caller.admin.serviceOrders.detail({ id })
    expect(staffView.messages.filter((m) => m.internal).map((m) => m.body)).toEqual(['Buyer seems unsure'])
  })
})

describe('unread marks per staff member', () => {
  it('keeps a message read by one staff member unread for another', async () => {
    const { id, shopper, staff } = await scene()
    const first = await staff('editor')
    const second = await staff('viewer')
    const unreadFor = async (member: typeof first) => {
      const queue = await member.caller.admin.serviceOrders.list({})
      return { row: queue.items.find((item) => item.id === id)?.unread, total: queue.counts.unreadMessages }
    }
    const before = await unreadFor(second)
    await shopper.serviceOrders.sendMessage({ id, body: 'Is the name available?' })
    expect((await unreadFor(first)).row).toBe(1)
    expect(await unreadFor(second)).toEqual({ row: 1, total: before.total + 1 })

    await first.caller.admin.serviceOrders.markRead({ id })
    expect((await unreadFor(first)).row).toBe(0)
    // The colleague has not opened it: still unread for them, in the row and in the queue's count.
    expect(await unreadFor(second)).toEqual({ row: 1, total: before.total + 1 })
    // The buyer sees it as read by the team once anyone on the team has read it.
    expect((await shopper.serviceOrders.detail({ id })).messages.map((m) => m.read)).toEqual([true])

    await second.caller.admin.serviceOrders.markRead({ id })
    expect(await unreadFor(second)).toEqual({ row: 0, total: before.total })
    // A new message is unread again for both.
    await shopper.serviceOrders.sendMessage({ id, body: 'And a second question' })
    expect((await unreadFor(first)).row).toBe(1)
    expect((await unreadFor(second)).row).toBe(1)
  })
})

describe('the work queue', () => {
  it('pages through more than 200 orders: a page size, the total, every order once, soonest due first', async () => {
    const buyer = await createUser(db())
    const owner = await createUser(db(), { role: 'editor' })
    const editor = await callerAs(db(), owner)
    const order = await db()
      .insertInto('orders')
      .values({
        user_id: buyer.id,
        reference: `SF-Q${Date.now().toString(36).toUpperCase()}`,
        currency: 'GBP',
        method: 'card',
        status: 'paid',
        subtotal_minor: 0,
        total_minor: 0,
      })
      .returning('id')
      .executeTakeFirstOrThrow()
    const base = Date.UTC(2030, 0, 1)
    const count = 230
    // Due dates in a shuffled order, so the pages must come sorted from the query, not from insertion.
    const rows = Array.from({ length: count }, (_, i) => ({
      user_id: buyer.id,
      order_id: order.id,
      title: `Queue order ${i}`,
      status: 'submitted' as const,
      assignee_id: owner.id,
      due_at: new Date(base + ((i * 7919) % count) * 3_600_000),
    }))
    await db().insertInto('service_orders').values(rows).execute()

    const first = await editor.admin.serviceOrders.list({ assignee: owner.id })
    expect(first).toMatchObject({ total: count, page: 1, pageSize: 50, pageCount: 5 })
    expect(first.items).toHaveLength(50)
    const seen: string[] = []
    const dues: string[] = []
    for (let page = 1; page <= first.pageCount; page++) {
      const result = await editor.admin.serviceOrders.list({ assignee: owner.id, page })
      expect(result.items.length).toBe(page < 5 ? 50 : 30)
      seen.push(...result.items.map((item) => item.id))
      dues.push(...result.items.map((item) => item.dueAt!))
    }
    expect(new Set(seen).size).toBe(count)
    expect(dues).toEqual([...dues].sort())
    expect(dues[0]).toBe(new Date(base).toISOString())
    // Past the last page: nothing, with the same total.
    expect(await editor.admin.serviceOrders.list({ assignee: owner.id, page: 6 })).toMatchObject({
      items: [],
      total: count,
    })
    // Filters apply to the count as well.
    expect((await editor.admin.serviceOrders.list({ assignee: owner.id, status: 'in_progress' })).total).toBe(0)
  })
})

describe('deliveries and revisions', () => {
  it('completes on acceptance, with an e-mail to the buyer', async () => {
    const { id, buyer, shopper } = await delivered()
    expect((await shopper.serviceOrders.detail({ id })).deliveries).toMatchObject([{ note: 'Your certificate' }])
    await shopper.serviceOrders.acceptDelivery({ id })
    expect(await statusOf(id)).toBe('completed')
    expect((await mails(buyer.email)).map((m) => m.kind)).toEqual([
      'service-order-in-progress',
      'service-order-delivered',
      'service-order-completed',
    ])
    expect(await codeOf(shopper.serviceOrders.acceptDelivery({ id }))).toBe('CONFLICT')
  })

  it('allows as many revisions as the package says, and no more', async () => {
    // UK Standard allows one revision.
    const { id, shopper, editor } = await delivered('uk-company-formation', 'Standard')
    await shopper.serviceOrders.requestRevision({ id, details: 'Please fix the SIC code' })
    expect(await statusOf(id)).toBe('revision_requested')
    const detail = await shopper.serviceOrders.detail({ id })
    expect(detail).toMatchObject({ revisionsAllowed: 1, revisionsUsed: 1 })
    expect(detail.messages.at(-1)?.body).toBe('Revision requested: Please fix the SIC code')

    await editor.caller.admin.serviceOrders.deliver({ id, note: 'Fixed', fileIds: [] })
    expect(await codeOf(shopper.serviceOrders.requestRevision({ id, details: 'Again' }))).toBe('CONFLICT')
    expect(await statusOf(id)).toBe('delivered')
    await shopper.serviceOrders.acceptDelivery({ id })
    expect(await statusOf(id)).toBe('completed')
  })

  it('gives Premium two revisions', async () => {
    const { id, shopper, editor } = await delivered('uk-company-formation', 'Premium')
    for (const round of [1, 2]) {
      await shopper.serviceOrders.requestRevision({ id, details: `Round ${round}` })
      await editor.caller.admin.serviceOrders.deliver({ id, note: `Round ${round} fixed`, fileIds: [] })
    }
    expect(await codeOf(shopper.serviceOrders.requestRevision({ id, details: 'Round 3' }))).toBe('CONFLICT')
  })

  raceIt('lets one answer win when the buyer accepts and asks for a revision at once', async () => {
    const { id, shopper } = await delivered('uk-company-formation', 'Premium')
    // The order row is held while the three answers start, so they truly meet at it.
    const outcomes = await whileRowHeld(db(), 'service_orders', id, () =>
      Promise.allSettled([
        shopper.serviceOrders.acceptDelivery({ id }),
        shopper.serviceOrders.requestRevision({ id, details: 'Change it' }),
        shopper.serviceOrders.requestRevision({ id, details: 'Change it again' }),
      ]),
    )
    expect(outcomes.filter((o) => o.status === 'fulfilled')).toHaveLength(1)
    const left = await db()
      .selectFrom('service_order_events')
      .select('to_status')
      .where('service_order_id', '=', id)
      .where('from_status', '=', 'delivered')
      .execute()
    expect(left).toHaveLength(1)
    const row = await db()
      .selectFrom('service_orders')
      .select(['status', 'revisions_used'])
      .where('id', '=', id)
      .executeTakeFirstOrThrow()
    expect(row.revisions_used).toBe(row.status === 'revision_requested' ? 1 : 0)
  })

  it('completes unanswered deliveries after N days, by the scheduled job, with an e-mail', async () => {
    const old = await delivered()
    const fresh = await delivered()
    await db()
      .updateTable('service_orders')
      .set({ delivered_at: new Date(Date.now() - 3 * 86_400_000 - 60_000) })
      .where('id', '=', old.id)
      .execute()
    const log = { info() {}, warn() {}, error() {} }
    const run = handlers({
      db: db(),
      log,
      storage: undefined as never,
      transport: undefined as never,
      from: 'test@example.test',
      serviceOrders: { autoCompleteDays: 3, publicUrl: 'http://storefront.test' },
    })['service-orders.auto-complete']
    await run({ data: {} } as never)
    expect(await statusOf(old.id)).toBe('completed')
    expect(await statusOf(fresh.id)).toBe('delivered')
    expect((await mails(old.buyer.email, 'service-order-completed')).length).toBe(1)
    const history = await db()
      .selectFrom('service_order_events')
      .select(['to_status', 'actor_id'])
      .where('service_order_id', '=', old.id)
      .orderBy('created_at', 'desc')
      .limit(1)
      .executeTakeFirstOrThrow()
    expect(history).toEqual({ to_status: 'completed', actor_id: null })
  })
})
