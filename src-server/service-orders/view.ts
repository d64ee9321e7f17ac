// Opening a service order's page: who may (its buyer, or staff), what they see (staff also internal notes and the
// actions the status allows), and the read marks that opening it sets on the other side's messages.
import type { DB } from '../db.ts'
import { type Viewer, visibleOrder } from './access.ts'
import { markThreadRead } from './messages.ts'
import { orderDetail } from './repository.ts'
import { transitionsFrom } from './transitions.ts'

export async function viewOrder(db: DB, viewer: Viewer, id: string, side: 'buyer' | 'staff') {
  await visibleOrder(db, id, viewer, side)
  await markThreadRead(db, id, side)
  const detail = await orderDetail(db, id, side === 'staff')
  return { ...detail, actions: side === 'staff' ? transitionsFrom(detail.status) : [] }
}
