// A course priced in USD and/or GBP (issue 30, decision 0069): the creator sets both prices in the studio; a buyer
// who chooses GBP is charged the GBP price and one who chooses USD the USD price, each in that currency's pending
// order; a course without a price in the buyer's currency is sold in the one it has; a price is never the client's
// (a price in the cart input is refused); a cancelled order puts the line back in its currency; staff set both
// prices too; and the migration moves an older row's price (and a pending revision's) to its currency's column.
import { randomBytes } from 'node:crypto'
import { TRPCError } from '@trpc/server'
import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import * as migration from '../../../db/migrations/2026_12_02_0400_course_prices_by_currency.ts'
import { insertCourse } from '../../../db/seed/factories.ts'
import { listCartLines } from '../../../src-server/flows/cart-lines.ts'
import type { DatabaseHandle } from '../../../src-server/kernel/db.ts'
import { defaultPayments, type PaymentsConfig } from '../../../src-server/payments/config.ts'
import type { StudioCourseInput } from '../../../src-shared/schemas/studio.ts'
import { createCreator, createCreatorCourse } from '../../support/creator-courses.ts'
import { createTestDatabase } from '../../support/db.ts'
import { callerAs, createUser } from '../../support/factories.ts'
import { shopCaller } from '../../support/shop.ts'
import { developmentCategory, makeCreator } from '../../support/studio.ts'

let database: DatabaseHandle
const db = () => database.db
let categoryId: string

beforeAll(async () => {
  database = await createTestDatabase()
  categoryId = await developmentCategory(db())
})
afterAll(() => database.close())

/** Bank transfer, no card: no Stripe needed. */
const payments: PaymentsConfig = { ...defaultPayments, paypalMeUrl: 'https://paypal.me/skillforge' }

const details = (courseId: string, over: Partial<StudioCourseInput> = {}): StudioCourseInput => ({
  courseId,
  title: 'Sourdough at Home',
  subtitle: 'Bread from flour, water and time',
  categoryId,
  level: 'beginner',
  language: 'English',
  description: 'Bake.',
  whatYouWillLearn: [],
  requirements: [],
  imageUrl: '',
  priceUsd: '49.99',
  priceGbp: '39.99',
  certificate: true,
  ...over,
})

/** A creator's course priced through the studio, then published. */
async function studioCourse(over: Partial<StudioCourseInput> = {}) {
  const creator = await makeCreator(db())
  const caller = await callerAs(db(), creator)
  const { id } = await caller.studio.createCourse({ title: `Sourdough ${randomBytes(3).toString('hex')}`, categoryId })
  const saved = await caller.studio.updateCourse(details(id, over))
  await db()
    .updateTable('courses')
    .set({ status: 'published', published_at: new Date() })
    .where('id', '=', id)
    .execute()
  return { id, saved, caller }
}

async function buyer() {
  const user = await createUser(db())
  return { user, caller: await shopCaller(db(), user, payments) }
}

const priceColumns = (id: string) =>
  db()
    .selectFrom('courses')
    .select(['price_minor', 'currency', 'price_usd_minor', 'price_gbp_minor'])
    .where('id', '=', id)
    .executeTakeFirstOrThrow()

async function codeOf(promise: Promise<unknown>) {
  try {
    await promise
    return 'OK'
  } catch (error) {
    return error instanceof TRPCError ? error.code : String(error)
  }
}

describe('a creator prices a course in USD and GBP', () => {
  it('stores both prices; the list price is the USD one; the course page and the API say both', async () => {
    const { id, saved } = await studioCourse()
    expect(saved).toMatchObject({ prices: { USD: 4999, GBP: 3999 }, priceMinor: 4999, currency: 'USD' })
    expect(await priceColumns(id)).toEqual({
      price_minor: 4999,
      currency: 'USD',
      price_usd_minor: 4999,
      price_gbp_minor: 3999,
    })
    const page = await (await shopCaller(db(), null)).catalog.course({ id })
    expect(page).toMatchObject({ priceMinor: 4999, currency: 'USD', prices: { USD: 4999, GBP: 3999 } })
  })

  it('a GBP-only course lists in GBP; clearing both prices makes it free', async () => {
    const { id, caller } = await studioCourse({ priceUsd: '', priceGbp: '12' })
    expect(await priceColumns(id)).toEqual({
      price_minor: 1200,
      currency: 'GBP',
      price_usd_minor: null,
      price_gbp_minor: 1200,
    })
    await db().updateTable('courses').set({ status: 'draft' }).where('id', '=', id).execute()
    await caller.studio.updateCourse(details(id, { priceUsd: '0', priceGbp: '' }))
    expect(await priceColumns(id)).toEqual({
      price_minor: 0,
      currency: 'GBP',
      price_usd_minor: null,
      price_gbp_minor: null,
    })
  })

  it('on a course on sale, a price change waits for review with both prices as the buyer would see them', async () => {
    const creator = await createCreator(db(), { plan: 'basic' })
    const caller = await callerAs(db(), creator)
    // An older row: one price in USD, no per-currency columns (sold at its list price).
    const course = await createCreatorCourse(db(), creator, { status: 'published' })
    const live = await db()
      .selectFrom('courses')
      .select(['title', 'description', 'subtitle', 'image_url'])
      .where('id', '=', course.id)
      .executeTakeFirstOrThrow()
    const same = { title: live.title, description: live.description, subtitle: live.subtitle, imageUrl: live.image_url }
    const saved = await caller.studio.updateCourse(details(course.id, { ...same, priceUsd: '49', priceGbp: '44.50' }))
    expect(saved.pending).toEqual({ priceGbpMinor: 4450 })
    expect(await priceColumns(course.id)).toMatchObject({ price_minor: 4900, price_gbp_minor: null })
    const { submissionId } = await caller.studioPublishing.submit({ courseId: course.id })
    const staff = await callerAs(db(), await createUser(db(), { role: 'editor' }))
    const detail = await staff.admin.courseReviews.detail({ submissionId })
    expect(detail.diff).toEqual([{ field: 'price', live: '$49.00', draft: '$49.00 or £44.50' }])
    await staff.admin.courseReviews.approve({ submissionId, version: detail.version })
    expect(await priceColumns(course.id)).toEqual({
      price_minor: 4900,
      currency: 'USD',
      price_usd_minor: 4900,
      price_gbp_minor: 4450,
    })
  })
})

describe('the buyer pays in their currency', () => {
  it('choosing GBP puts the GBP price in the cart and a GBP order at it; USD has nothing to check out', async () => {
    const { id } = await studioCourse()
    const { user, caller } = await buyer()
    await caller.cart.add({ kind: 'course', courseId: id, currency: 'GBP' })
    const [line] = await listCartLines(db(), user.id)
    expect(line).toMatchObject({ courseId: id, priceMinor: 3999, currency: 'GBP' })
    expect(await codeOf(caller.payments.start({ currency: 'USD', method: 'bank_transfer' }))).not.toBe('OK')

    const started = await caller.payments.start({ currency: 'GBP', method: 'bank_transfer' })
    if (started.method !== 'bank_transfer') throw new Error('expected a bank-transfer order')
    expect(started.totalMinor).toBe(3999)
    const order = await db()
      .selectFrom('orders')
      .innerJoin('order_items as oi', 'oi.order_id', 'orders.id')
      .select(['orders.currency', 'orders.total_minor', 'oi.unit_price_minor', 'oi.course_id'])
      .where('orders.id', '=', started.orderId)
      .execute()
    expect(order).toEqual([{ currency: 'GBP', total_minor: 3999, unit_price_minor: 3999, course_id: id }])

    // Cancelled: the line comes back in the currency it was bought in.
    await caller.payments.cancelOrder({ orderId: started.orderId })
    const back = await db()
      .selectFrom('cart_items')
      .select(['course_id', 'currency'])
      .where('user_id', '=', user.id)
      .execute()
    expect(back).toEqual([{ course_id: id, currency: 'GBP' }])
  })

  it('choosing USD, or nothing, charges the USD price', async () => {
    const { id } = await studioCourse()
    for (const currency of ['USD', undefined] as const) {
      const { user, caller } = await buyer()
      await caller.cart.add(currency ? { kind: 'course', courseId: id, currency } : { kind: 'course', courseId: id })
      const started = await caller.payments.start({ currency: 'USD', method: 'bank_transfer' })
      if (started.method !== 'bank_transfer') throw new Error('expected a bank-transfer order')
      expect(started.totalMinor).toBe(4999)
      expect((await listCartLines(db(), user.id))[0]).toMatchObject({ priceMinor: 4999, currency: 'USD' })
    }
  })

  it('a course without a price in the chosen currency is sold in the one it has', async () => {
    const { id } = await studioCourse({ priceUsd: '25', priceGbp: '' })
    const { user, caller } = await buyer()
    await caller.cart.add({ kind: 'course', courseId: id, currency: 'GBP' })
    expect((await listCartLines(db(), user.id))[0]).toMatchObject({ priceMinor: 2500, currency: 'USD' })
    const started = await caller.payments.start({ currency: 'USD', method: 'bank_transfer' })
    expect(started.totalMinor).toBe(2500)
  })

  it('a price from the client is refused; the server’s price is the only one', async () => {
    const { id } = await studioCourse()
    const { user, caller } = await buyer()
    const tampered = { kind: 'course', courseId: id, currency: 'GBP', priceMinor: 1 } as never
    expect(await codeOf(caller.cart.add(tampered))).toBe('BAD_REQUEST')
    expect(await codeOf(caller.cart.add({ kind: 'course', courseId: id, currency: 'EUR' } as never))).toBe(
      'BAD_REQUEST',
    )
    expect(await listCartLines(db(), user.id)).toEqual([])
  })
})

describe('staff set both prices', () => {
  it('the admin course editor stores the USD and GBP prices and shows them back', async () => {
    const admin = await callerAs(db(), await createUser(db(), { role: 'admin' }))
    const created = await admin.admin.courses.create({
      title: `House Bread ${randomBytes(3).toString('hex')}`,
      description: 'A house course.',
      price: '30',
      priceGbp: '25.50',
      categoryId,
    })
    expect(created).toMatchObject({ price: '30.00', priceGbp: '25.50', prices: { USD: 3000, GBP: 2550 } })
    expect(await priceColumns(created.id)).toEqual({
      price_minor: 3000,
      currency: 'USD',
      price_usd_minor: 3000,
      price_gbp_minor: 2550,
    })
    const updated = await admin.admin.courses.update({
      id: created.id,
      title: created.title,
      description: created.description,
      price: '0',
      priceGbp: '20',
      categoryId,
    })
    expect(updated).toMatchObject({ price: '0.00', priceGbp: '20.00', priceMinor: 2000, currency: 'GBP' })
  })
})

describe('the migration', () => {
  it('moves an older row’s price to its currency’s column, and a pending revision’s price too', async () => {
    // Its own database: the columns are dropped and added again.
    const own = await createTestDatabase()
    try {
      await migrationOn(own.db)
    } finally {
      await own.close()
    }
    // A database of its own (a template load on PGlite) and a migration down and up: 2 s alone, over 45 s under load.
  }, 180_000)
})

/** The migration on a database of its own: an older row's price moves to its column. */
async function migrationOn(db: DatabaseHandle['db']) {
  {
    const categoryId = await developmentCategory(db)
    const priceColumns = (id: string) =>
      db
        .selectFrom('courses')
        .select(['price_minor', 'currency', 'price_usd_minor', 'price_gbp_minor'])
        .where('id', '=', id)
        .executeTakeFirstOrThrow()
    const usd = await insertCourse(db, {
      id: `legacy-usd-${randomBytes(3).toString('hex')}`,
      title: 'Legacy USD',
      category_id: categoryId,
      status: 'published',
      price_minor: 1500,
    })
    const gbp = await insertCourse(db, {
      id: `legacy-gbp-${randomBytes(3).toString('hex')}`,
      title: 'Legacy GBP',
      category_id: categoryId,
      status: 'published',
      price_minor: 900,
    })
    await db.updateTable('courses').set({ currency: 'GBP' }).where('id', '=', gbp.id).execute()
    const free = await insertCourse(db, {
      id: `legacy-free-${randomBytes(3).toString('hex')}`,
      title: 'Legacy free',
      category_id: categoryId,
      status: 'published',
      price_minor: 0,
    })
    // Before the migration: one price and its currency (a revision said priceMinor and currency).
    await migration.down(db)
    await sql`insert into course_drafts (course_id, fields) values (${usd.id}, ${JSON.stringify({
      title: 'Renamed',
      priceMinor: 2000,
      currency: 'GBP',
    })}::jsonb)`.execute(db)
    await migration.up(db)

    expect(await priceColumns(usd.id)).toEqual({
      price_minor: 1500,
      currency: 'USD',
      price_usd_minor: 1500,
      price_gbp_minor: null,
    })
    expect(await priceColumns(gbp.id)).toMatchObject({ price_usd_minor: null, price_gbp_minor: 900 })
    expect(await priceColumns(free.id)).toMatchObject({ price_usd_minor: null, price_gbp_minor: null })
    const draft = await db
      .selectFrom('course_drafts')
      .select('fields')
      .where('course_id', '=', usd.id)
      .executeTakeFirst()
    expect(draft?.fields).toEqual({ title: 'Renamed', priceUsdMinor: null, priceGbpMinor: 2000 })
  }
}
