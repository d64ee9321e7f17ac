// A buyer's order history: orders/ lists the orders, payments/ adds how to pay the unpaid bank-transfer and PayPal
// ones (shown until paid), and a gift order says whom it was for (decision 0146): it is not the buyer's own purchase.
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
  const withGifts = orders.map((order) => ({
    ...order,
    items: order.items.map((item) => {
      const gift = gifts.get(item.id)
      return { ...item, gift: gift ? { recipientEmail: gift.recipientEmail, claimedAt: gift.claimedAt } : null }
    }),
  }))
  return withPaymentInstructions(payments, withGifts)
}
