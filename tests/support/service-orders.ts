// A paid service order for a buyer, opened the way a paid order opens it (service-orders/open.ts), plus a
// complete UK formation brief. Shared by the integration tests of the workflow and its files.
import { randomBytes } from 'node:crypto'
import type { Kysely } from 'kysely'
import type { Database } from '../../db/types.ts'
import { openServiceOrders } from '../../src-server/service-orders/open.ts'

export async function paidServiceOrder(
  db: Kysely<Database>,
  userId: string,
  serviceId = 'uk-company-formation',
  packageName = 'Standard',
): Promise<string> {
  const pkg = await db
    .selectFrom('service_packages')
    .select(['id', 'price_minor', 'currency'])
    .where('service_id', '=', serviceId)
    .where('name', '=', packageName)
    .executeTakeFirstOrThrow()
  const order = await db
    .insertInto('orders')
    .values({
      user_id: userId,
      reference: `SF-T${randomBytes(4).toString('hex').toUpperCase()}`,
      currency: pkg.currency,
      method: 'card',
      status: 'paid',
      subtotal_minor: pkg.price_minor,
      total_minor: pkg.price_minor,
    })
    .returning('id')
    .executeTakeFirstOrThrow()
  const title = `${serviceId} - ${packageName}`
  await openServiceOrders(db, {
    userId,
    orderId: order.id,
    lines: [{ kind: 'service_package', service_package_id: pkg.id, title }],
  })
  const row = await db
    .selectFrom('service_orders')
    .select('id')
    .where('order_id', '=', order.id)
    .executeTakeFirstOrThrow()
  return row.id
}

export const ukDirector = {
  fullName: 'Ada Lovelace',
  dateOfBirth: '1990-12-10',
  nationality: 'British',
  address: '1 High Street, London, N1 1AA',
  sharePercent: '100',
  personalCode: 'AB12CD34EF5',
  isDirector: true,
  isPsc: true,
}

export const ukBrief = {
  proposedName: 'Analytical Engines Ltd',
  alternativeName: 'Difference Engines Ltd',
  companyType: 'Private limited by shares',
  registeredOffice: '20 Wenlock Road, London, N1 7GU',
  sicCodes: ['62012'],
  people: [ukDirector],
  shareCapital: '100',
}
