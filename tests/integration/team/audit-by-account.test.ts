// /admin/audit's Account e-mail: the entries about one account (a user entity: a look-up on /admin/customers, a data
// export staff asked for) and the entries it made as staff, newest first, none of another account's; an unknown
// address says so; a part of one is refused; only admins may read it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { record } from '../../../src-server/audit/repository.ts'
import type { DatabaseHandle } from '../../../src-server/kernel/db.ts'
import { createTestDatabase } from '../../support/db.ts'
import { callerAs, createUser } from '../../support/factories.ts'

let database: DatabaseHandle
const db = () => database.db

beforeAll(async () => {
  database = await createTestDatabase()
})
afterAll(async () => {
  await database?.close()
})

describe('the audit log narrowed to one account', () => {
  it('lists the entries about the account and made by it, and no other', async () => {
    const customer = await createUser(db(), { email: `Audited.${Date.now()}@Example.test` })
    const other = await createUser(db())
    const support = await createUser(db(), { role: 'viewer' })
    const admin = await createUser(db(), { role: 'admin' })
    const asSupport = await callerAs(db(), support)
    await asSupport.admin.customers.find({ customer: customer.email })
    await asSupport.admin.customers.find({ customer: other.email })
    await record(db(), { id: admin.id, email: admin.email }, 'privacy.export_requested', {
      type: 'user',
      id: customer.id,
    })
    // An entry whose entity id is the customer's but is not a user (ids are unique per table, not across them).
    await record(db(), { id: admin.id, email: admin.email }, 'course.update', { type: 'course', id: customer.id })
    const asAdmin = await callerAs(db(), admin)

    const about = await asAdmin.admin.audit.list({ page: 1, account: customer.email.toUpperCase() })
    expect(about.unknownAccount).toBe(false)
    expect(about.items.map((entry) => [entry.action, entry.entityId]).sort()).toEqual(
      [
        ['customer.viewed', customer.id],
        ['privacy.export_requested', customer.id],
      ].sort(),
    )
    expect(about.total).toBe(2)

    // The support member's own look-ups, as the actor.
    const by = await asAdmin.admin.audit.list({ page: 1, account: support.email })
    expect(by.items.map((entry) => [entry.action, entry.entityId]).sort()).toEqual(
      [
        ['customer.viewed', customer.id],
        ['customer.viewed', other.id],
      ].sort(),
    )
    expect(by.items.every((entry) => entry.actorEmail === support.email)).toBe(true)

    // Without the address: the whole log, these among it.
    const all = await asAdmin.admin.audit.list({ page: 1 })
    expect(all.total).toBeGreaterThanOrEqual(4)
  })

  it('lists a staff member’s role change among the entries about their account', async () => {
    const member = await createUser(db(), { role: 'editor' })
    const admin = await callerAs(db(), await createUser(db(), { role: 'admin' }))
    await admin.admin.team.changeRole({ userId: member.id, role: 'viewer' })
    const about = await admin.admin.audit.list({ page: 1, account: member.email })
    expect(about.items.map((entry) => [entry.action, entry.entityType, entry.entityId])).toEqual([
      ['team.role', 'team_member', member.id],
    ])
  })

  it('says when no account has the address, refuses a part of one, and is for admins only', async () => {
    const admin = await callerAs(db(), await createUser(db(), { role: 'admin' }))
    expect(await admin.admin.audit.list({ page: 1, account: `nobody.${Date.now()}@example.test` })).toMatchObject({
      items: [],
      total: 0,
      unknownAccount: true,
    })
    await expect(admin.admin.audit.list({ page: 1, account: 'audited.' })).rejects.toMatchObject({
      code: 'BAD_REQUEST',
    })
    const viewer = await callerAs(db(), await createUser(db(), { role: 'viewer' }))
    await expect(viewer.admin.audit.list({ page: 1, account: 'a@example.test' })).rejects.toMatchObject({
      code: 'FORBIDDEN',
    })
  })
})
