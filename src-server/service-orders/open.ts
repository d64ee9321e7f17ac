// A paid order's business-service packages become service orders for staff to work on (one per package, once).
import type { CartItemKind } from '../../db/types.ts'
import type { DB } from '../db.ts'

export interface PaidPackages {
  userId: string
  orderId: string
  lines: readonly { kind: CartItemKind; service_package_id: string | null; title: string }[]
}

export async function openServiceOrders(trx: DB, order: PaidPackages): Promise<void> {
  const packages = order.lines.filter((line) => line.kind === 'service_package')
  if (packages.length === 0) return
  await trx
    .insertInto('service_orders')
    .values(
      packages.map((line) => ({
        user_id: order.userId,
        order_id: order.orderId,
        service_package_id: line.service_package_id,
        title: line.title,
      })),
    )
    .onConflict((oc) => oc.columns(['order_id', 'service_package_id']).doNothing())
    .execute()
}
