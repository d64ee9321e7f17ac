// Helpers for cart and payment tests: callers with payment settings, and catalogue ids from the seed.
import type { Kysely } from 'kysely'
import type { Database } from '../../db/types.ts'
import { createSession } from '../../src-server/auth/session.ts'
import type { SessionUser } from '../../src-server/auth/types.ts'
import { defaultAppConfig } from '../../src-server/config.ts'
import type { PaymentsConfig } from '../../src-server/payments/config.ts'
import { createCaller } from '../../src-server/routers/_app.ts'
import { createContextInner } from '../../src-server/trpc/context.ts'

export async function shopCaller(db: Kysely<Database>, user: SessionUser | null, payments?: PaymentsConfig) {
  const config = { ...defaultAppConfig, payments }
  if (!user) return createCaller(createContextInner({ db, user: null, session: null, config }))
  const { session } = await createSession(db, user.id)
  return createCaller(createContextInner({ db, user, session, config }))
}

export async function publishedCourse(db: Kysely<Database>, offset = 0) {
  return db
    .selectFrom('courses')
    .select(['id', 'title', 'price_minor'])
    .where('status', '=', 'published')
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
