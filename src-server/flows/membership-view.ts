// What a member and staff read of a plan: subscriptions/ tells it in words, orders/ lists its invoices (the member's
// page) and the orders that started plans (the staff list).
import type { DB } from '../kernel/db.ts'
import { invoicesOfSubscription, listOrdersForStaff, type StaffOrderFilter } from '../orders/repository.ts'
import { membershipOf, plansOfOrders } from '../subscriptions/view.ts'

/** /account/membership: the live or last plan in words, with its invoices (still listed after it ended). */
export async function membershipPage(db: DB, userId: string) {
  const membership = await membershipOf(db, userId)
  if (!membership) return null
  const invoices = await invoicesOfSubscription(db, userId, membership)
  return {
    ...membership,
    invoices: invoices.map((invoice) => ({
      id: invoice.id,
      number: invoice.number,
      issuedAt: invoice.issued_at.toISOString(),
      totalMinor: invoice.total_minor,
      currency: invoice.currency,
    })),
  }
}

/**
 * /admin/orders: the orders, each plan order with its plan as the member reads it, and `membership`: what staff's End
 * membership may do with that plan (decision 0096).
 */
export async function ordersForStaff(db: DB, options: StaffOrderFilter & { limit?: number; offset?: number }) {
  const orders = await listOrdersForStaff(db, options)
  const plans = await plansOfOrders(
    db,
    orders.map((order) => order.id),
  )
  return orders.map((order) => {
    const plan = plans.get(order.id)
    return { ...order, plan: plan?.text ?? null, membership: plan ?? null }
  })
}
