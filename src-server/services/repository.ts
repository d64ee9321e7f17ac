// Services and their packages. Public queries select explicit columns.
import { compiledOnce } from '../kernel/compiled-query.ts'
import type { DB } from '../kernel/db.ts'

const serviceColumns = [
  'services.id',
  'services.title',
  'services.description',
  'services.image_url',
  'services.featured',
  'categories.name as category_name',
] as const

/** Services in display order with their cheapest package ('From' price), in one query. */
function servicesInOrder(db: DB) {
  return db
    .selectFrom('services')
    .innerJoin('categories', 'categories.id', 'services.category_id')
    .select(serviceColumns)
    .select((eb) => [
      eb
        .selectFrom('service_packages')
        .select(['price_minor'])
        .whereRef('service_packages.service_id', '=', 'services.id')
        .orderBy('price_minor')
        .limit(1)
        .as('from_price_minor'),
      eb
        .selectFrom('service_packages')
        .select(['currency'])
        .whereRef('service_packages.service_id', '=', 'services.id')
        .orderBy('price_minor')
        .limit(1)
        .as('from_currency'),
      // A monthly package's card price is per month (its card says so).
      eb
        .selectFrom('service_packages')
        .select(['billing_interval'])
        .whereRef('service_packages.service_id', '=', 'services.id')
        .orderBy('price_minor')
        .limit(1)
        .as('from_billing_interval'),
    ])
    .orderBy('services.position')
}

// Compiled once: the home page asks for the featured ones on every visit (issue 37).
export const listServices = compiledOnce((db: DB) => servicesInOrder(db))
export const listFeaturedServices = compiledOnce((db: DB, limit: number) =>
  servicesInOrder(db).where('services.featured', '=', true).limit(limit),
)

export function findService(db: DB, id: string) {
  return db
    .selectFrom('services')
    .innerJoin('categories', 'categories.id', 'services.category_id')
    .select(serviceColumns)
    .select(['services.what_you_get', 'services.requirements', 'services.process_steps', 'services.faqs'])
    .where('services.id', '=', id)
    .executeTakeFirst()
}

export function listPackages(db: DB, serviceId: string) {
  return db
    .selectFrom('service_packages')
    .select(['id', 'name', 'price_minor', 'currency', 'description', 'features', 'processing_time', 'billing_interval'])
    .where('service_id', '=', serviceId)
    .orderBy('position')
    .execute()
}

export function listServiceIds(db: DB) {
  return db.selectFrom('services').select(['id', 'updated_at']).orderBy('position').execute()
}

/** serviceId → its cheapest package id: what a service card's Add to Cart adds. */
export async function cheapestPackageIds(db: DB): Promise<Record<string, string>> {
  const rows = await db
    .selectFrom('service_packages')
    .distinctOn('service_id')
    .select(['service_id', 'id'])
    .orderBy('service_id')
    .orderBy('price_minor')
    .orderBy('position')
    .execute()
  return Object.fromEntries(rows.map((row) => [row.service_id, row.id]))
}

/** Whether a service page exists; the SPA fallback's 404 asks it. */
export async function serviceExists(db: DB, id: string): Promise<boolean> {
  return (await db.selectFrom('services').select('id').where('id', '=', id).executeTakeFirst()) !== undefined
}
