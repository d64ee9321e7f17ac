// The workflow migration on rows that existed before it: 'new' orders wait for their brief, take their package's
// processing days and revisions, and get a first history row; packages' processing days come from their text.
import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { down, up } from '../../../db/migrations/2026_11_24_1300_service_order_workflow.ts'
import * as periodsAndReads from '../../../db/migrations/2026_11_25_0300_service_order_periods_reads.ts'
import type { DatabaseHandle } from '../../../src-server/kernel/db.ts'
import { createTestDatabase } from '../../support/db.ts'
import { createUser } from '../../support/factories.ts'
import { placeOrder } from '../../support/orders.ts'
import { publishedCourse } from '../../support/shop.ts'

let database: DatabaseHandle
beforeAll(async () => {
  database = await createTestDatabase()
})
afterAll(async () => {
  await database.close()
})

describe('2026_11_24_1300_service_order_workflow', () => {
  it('turns "new" service orders into "Brief needed" with their package’s terms and a history row', async () => {
    const db = database.db
    // The later migration's tables reference this one's: undone first, redone last.
    await periodsAndReads.down(db)
    await down(db)
    const user = await createUser(db)
    const course = await publishedCourse(db)
    const orderId = await placeOrder(db, { userId: user.id, courseId: course.id, reference: 'SF-MIGRATE1' })
    const pkg = await db
      .selectFrom('service_packages')
      .select('id')
      .where('service_id', '=', 'seo-audit')
      .where('name', '=', 'Professional Audit')
      .executeTakeFirstOrThrow()
    await sql`insert into service_orders (user_id, order_id, service_package_id, title, status)
      values (${user.id}, ${orderId}, ${pkg.id}, 'SEO Audit - Professional Audit', 'new')`.execute(db)

    await up(db)
    await periodsAndReads.up(db)
    const row = await db
      .selectFrom('service_orders')
      .select(['id', 'status', 'service_id', 'processing_days', 'revisions_allowed', 'brief'])
      .where('order_id', '=', orderId)
      .executeTakeFirstOrThrow()
    // 'Professional Audit' takes "7-10 business days"; packages existing before the migration allow 1 revision.
    expect(row).toMatchObject({ status: 'brief_needed', service_id: 'seo-audit', processing_days: 10, brief: {} })
    expect(row.revisions_allowed).toBe(1)
    const history = await db
      .selectFrom('service_order_events')
      .select(['from_status', 'to_status'])
      .where('service_order_id', '=', row.id)
      .execute()
    expect(history).toEqual([{ from_status: null, to_status: 'brief_needed' }])
    const days = await db
      .selectFrom('service_packages')
      .select(['processing_time', 'processing_days'])
      .where('service_id', '=', 'company-consultancy')
      .orderBy('position')
      .execute()
    expect(days.map((p) => p.processing_days)).toEqual([3, 7, 14])
  })
})

describe('2026_11_25_0300_service_order_periods_reads', () => {
  it('gives every staff member the read marks the shared inbox had, and none for unread messages', async () => {
    const db = database.db
    await periodsAndReads.down(db)
    const buyer = await createUser(db)
    const editor = await createUser(db, { role: 'editor' })
    const viewer = await createUser(db, { role: 'viewer' })
    const course = await publishedCourse(db)
    const orderId = await placeOrder(db, { userId: buyer.id, courseId: course.id, reference: 'SF-MIGRATE2' })
    const order = await db
      .insertInto('service_orders')
      .values({ user_id: buyer.id, order_id: orderId, title: 'Consultancy' })
      .returning('id')
      .executeTakeFirstOrThrow()
    const readAt = new Date('2026-11-20T10:00:00Z')
    const messages = await db
      .insertInto('service_order_messages')
      .values([
        { service_order_id: order.id, author_id: buyer.id, from_staff: false, body: 'read', read_at: readAt },
        { service_order_id: order.id, author_id: buyer.id, from_staff: false, body: 'unread' },
        { service_order_id: order.id, author_id: editor.id, from_staff: true, body: 'staff', read_at: readAt },
      ])
      .returning(['id', 'body'])
      .execute()

    await periodsAndReads.up(db)
    const reads = await db
      .selectFrom('service_order_message_reads')
      .select(['message_id', 'user_id', 'read_at'])
      .where(
        'message_id',
        'in',
        messages.map((m) => m.id),
      )
      .execute()
    const read = messages.find((m) => m.body === 'read')!.id
    expect(reads.filter((r) => r.message_id !== read)).toEqual([])
    const readers = reads.map((r) => r.user_id)
    expect(readers).toEqual(expect.arrayContaining([editor.id, viewer.id]))
    expect(readers).not.toContain(buyer.id)
    expect(reads.every((r) => r.read_at.getTime() === readAt.getTime())).toBe(true)
    const recurring = await db
      .selectFrom('service_orders')
      .select(['recurring', 'ends_at'])
      .where('id', '=', order.id)
      .executeTakeFirstOrThrow()
    expect(recurring).toEqual({ recurring: false, ends_at: null })
  })
})
