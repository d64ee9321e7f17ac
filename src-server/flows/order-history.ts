// A buyer's order history: orders/ lists the orders, payments/ adds how to pay the unpaid bank-transfer and PayPal
// ones (shown until paid).
import type { DB } from '../kernel/db.ts'
import { listOrdersForUser } from '../orders/repository.ts'
import type { PaymentsConfig } from '../payments/config.ts'
import { withPaymentInstructions } from '../payments/instructions.ts'

export async function orderHistory(db: DB, payments: PaymentsConfig, userId: string) {
  return withPaymentInstructions(payments, await listOrdersForUser(db, userId))
}
