// Opening a service order's page: who may (its buyer, or staff), what they see (staff also internal notes and the
// actions the status allows), and the read marks the page sets on the other side's messages once it shows them
// (markOrderRead), never by reading the order: the router loads an order's page when its link is only hovered.
import type { DB } from '../kernel/db.ts'
import { type Viewer, visibleOrder } from './access.ts'
import { markThreadRead } from './messages.ts'
import { orderDetail, type ServiceOrderDetail } from './repository.ts'
import { type ServiceOrderTransition, transitionsFrom } from './transitions.ts'

export async function viewOrder(db: DB, viewer: Viewer, id: string, side: 'buyer' | 'staff') {
  await visibleOrder(db, id, viewer, side)
  const detail = await orderDetail(db, id, side === 'staff')
  return { ...detail, actions: side === 'staff' ? staffActions(detail) : [] }
}

/**
 * The other side's messages read by the order's buyer or a staff member (anyone else: not found). Asked by the page
 * once it shows the thread, never by viewOrder.
 */
export async function markOrderRead(db: DB, viewer: Viewer, id: string, side: 'buyer' | 'staff') {
  await visibleOrder(db, id, viewer, side)
  await markThreadRead(db, id, side === 'buyer' ? 'buyer' : { staffId: viewer.id })
  return { read: true }
}

/**
 * What staff may do now. A recurring order is delivered a month at a time (deliverReport, while In progress with
 * a paid month not reported yet), never as a whole; its subscription's end closes it (not a staff action).
 */
function staffActions(detail: Pick<ServiceOrderDetail, 'status' | 'recurring' | 'periods'>) {
  const actions: (ServiceOrderTransition | 'deliverReport')[] = transitionsFrom(detail.status).filter(
    (action) => action !== 'close' && !(detail.recurring && action === 'deliver'),
  )
  if (detail.recurring && detail.status === 'in_progress' && detail.periods.some((p) => !p.deliveredAt)) {
    actions.push('deliverReport')
  }
  return actions
}
