// Learners for the learning tests: buyers and Premium members made as the shop makes them (a cart, an order,
// paid by staff), and a course's lessons in curriculum order.

import { mkdir, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { createFromCart } from '../../src-server/flows/cart-order.ts'
import { markPaid } from '../../src-server/flows/pay-order.ts'
import type { DB } from '../../src-server/kernel/db.ts'
import { createUser, type TestUser } from './factories.ts'
import { shopCaller } from './shop.ts'

type ShopCaller = Awaited<ReturnType<typeof shopCaller>>

async function paidFor(db: DB, add: (caller: ShopCaller) => Promise<unknown>, user?: TestUser) {
  const buyer = user ?? (await createUser(db))
  await add(await shopCaller(db, buyer))
  const order = await createFromCart(db, {
    userId: buyer.id,
    currency: 'USD',
    method: 'bank_transfer',
    referencePrefix: 'SF',
  })
  const result = await markPaid(db, order.id, { source: 'staff' })
  // Plain code, not a test assertion, so Playwright specs can use these helpers too.
  if (result !== 'fulfilled') throw new Error(`The order was not fulfilled: ${result}`)
  return { user: buyer, orderId: order.id }
}

export function buyerOfCourse(db: DB, courseId: string, user?: TestUser) {
  return paidFor(db, (caller) => caller.cart.add({ kind: 'course', courseId }), user)
}

export function premiumMember(db: DB) {
  return paidFor(db, (caller) => caller.cart.add({ kind: 'plan', planId: 'pro', billingCycle: 'monthly' }))
}

export async function lessonsOf(db: DB, courseId: string) {
  return db
    .selectFrom('lessons as l')
    .innerJoin('course_sections as s', 's.id', 'l.section_id')
    .select(['l.id', 'l.title', 'l.is_preview', 'l.kind', 'l.duration_seconds', 'l.body_markdown'])
    .where('l.course_id', '=', courseId)
    .orderBy('s.position')
    .orderBy('l.position')
    .execute()
}

/** A lesson's downloadable "notes.txt" ("lesson notes", 12 bytes), its file under `key` in the local storage `dir`. */
export async function storedAttachment(db: DB, dir: string, lessonId: string, key: string) {
  await mkdir(path.dirname(path.join(dir, key)), { recursive: true })
  await writeFile(path.join(dir, key), 'lesson notes')
  const row = await db
    .insertInto('lesson_attachments')
    .values({
      lesson_id: lessonId,
      file_name: 'notes.txt',
      storage_key: key,
      content_type: 'text/plain',
      size_bytes: 12,
    })
    .returning('id')
    .executeTakeFirstOrThrow()
  return { id: row.id, url: `/api/learn/attachments/${row.id}` }
}
