// A buyer's order history: orders/ lists the orders, payments/ adds how to pay the unpaid bank-transfer and PayPal
// ones (shown until paid), a gift order says whom it was for (decision 0146): it is not the buyer's own purchase, and
// each order names the school it was bought from, if one (decision 0150).
import { schoolSlugsOfCourses } from '../creators/schools.ts'
import type { DB } from '../kernel/db.ts'
import { listOrdersForUser } from '../orders/repository.ts'
import type { PaymentsConfig } from '../payments/config.ts'
import { withPaymentInstructions } from '../payments/instructions.ts'
import { giftRecipients } from './gift-delivery.ts'

export async function orderHistory(db: DB, payments: PaymentsConfig, userId: string) {
  const orders = await listOrdersForUser(db, userId)
  const gifts = await giftRecipients(
    db,
    orders.map((order) => order.id),
  )
  const courseIds = [...new Set(orders.flatMap((order) => order.items.flatMap((item) => item.courseId ?? [])))]
  const schools = await schoolSlugsOfCourses(db, courseIds)
  const withGifts = orders.map((order) => ({
    ...order,
    school: schoolOfOrder(order.items, schools),
    items: order.items.map((item) => {
      const gift = gifts.get(item.id)
      return { ...item, gift: gift ? { recipientEmail: gift.recipientEmail, claimedAt: gift.claimedAt } : null }
    }),
  }))
  return withPaymentInstructions(payments, withGifts)
}

/**
 * The school an order was bought from: the one school selling every line (courses of one school's owner), else null
 * (the marketplace's, or several sellers'). A school's own domain lists its own orders (decision 0150).
 */
function schoolOfOrder(items: readonly { courseId: string | null }[], schools: Map<string, string>): string | null {
  const sellers = new Set(items.map((item) => (item.courseId ? (schools.get(item.courseId) ?? null) : null)))
  const [only] = sellers
  return sellers.size === 1 && only ? only : null
}
