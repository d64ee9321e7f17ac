// Helpers for cart and payment tests: callers with payment settings, and catalogue ids from the seed.
import { randomBytes } from 'node:crypto'
import type { Kysely } from 'kysely'
import type { Database } from '../../db/types.ts'
import { createSession } from '../../src-server/auth/session.ts'
import type { SessionUser } from '../../src-server/auth/types.ts'
import { defaultAppConfig } from '../../src-server/kernel/config.ts'
import type { PaymentsConfig } from '../../src-server/payments/config.ts'
import { createCaller } from '../../src-server/routers/_app.ts'
import { createContextInner } from '../../src-server/trpc/context.ts'
import { createUser } from './factories.ts'

export async function shopCaller(db: Kysely<Database>, user: SessionUser | null, payments?: PaymentsConfig) {
  const config = { ...defaultAppConfig, payments }
  if (!user) return createCaller(createContextInner({ db, user: null, session: null, config }))
  const { session } = await createSession(db, user.id)
  return createCaller(createContextInner({ db, user, session, config }))
}

/** A published course with a price (a free cart completes without any payment rail, see free-enrolment tests). */
export async function publishedCourse(db: Kysely<Database>, offset = 0) {
  return db
    .selectFrom('courses')
    .select(['id', 'title', 'price_minor'])
    .where('status', '=', 'published')
    .where('price_minor', '>', 0)
    .orderBy('id')
    .offset(offset)
    .limit(1)
    .executeTakeFirstOrThrow()
}

export async function servicePackage(db: Kysely<Database>, serviceId: string, name: string) {
  return db
    .selectFrom('service_packages')
    .select(['id', 'name', 'price_minor', 'currency', 'billing_interval'])
    .where('service_id', '=', serviceId)
    .where('name', '=', name)
    .executeTakeFirstOrThrow()
}

/** Published USD courses priced above 0 (or exactly 0 with `free`), in a stable order. */
export function pricedCourses(db: Kysely<Database>, options: { count?: number; offset?: number; free?: boolean } = {}) {
  return db
    .selectFrom('courses')
    .select(['id', 'title', 'price_minor'])
    .where('status', '=', 'published')
    .where('price_minor', options.free ? '=' : '>', 0)
    .where('currency', '=', 'USD')
    .orderBy('id')
    .offset(options.offset ?? 0)
    .limit(options.count ?? 1)
    .execute()
}

/** A buyer who had a plan before (now cancelled): the one free trial per user is used up. */
export async function buyerWhoHadAPlan(db: Kysely<Database>) {
  const user = await createUser(db)
  await giveEndedPlan(db, user.id)
  return user
}

/** An ended Basic plan for the user: a plan bought now has no free trial, so its first period is charged. */
export async function giveEndedPlan(db: Kysely<Database>, userId: string) {
  await db
    .insertInto('subscriptions')
    .values({ user_id: userId, plan_id: 'basic', billing_cycle: 'monthly', status: 'cancelled', ended_at: new Date() })
    .execute()
}

/** A plan priced in pounds (the seed's plans are all in dollars): £15.00 a month, £150.00 a year. */
export async function sterlingPlan(db: Kysely<Database>) {
  const id = `sterling-${randomBytes(4).toString('hex')}`
  await db
    .insertInto('plans')
    .values({
      id,
      name: 'Sterling',
      description: 'A plan priced in pounds',
      monthly_price_minor: 1_500,
      annual_price_minor: 15_000,
      currency: 'GBP',
      features: JSON.stringify([]),
      position: 99,
    })
    .execute()
  return id
}
