// Which payment methods this store offers, and the PayPal hosted buttons of the services in the cart.
import { listPaypalButtonsInCart } from '../cart/repository.ts'
import type { DB } from '../kernel/db.ts'
import type { PaymentsConfig } from '../payments/config.ts'

export async function paymentOptions(db: DB, payments: PaymentsConfig, userId: string) {
  return {
    card: Boolean(payments.stripe),
    paypal: Boolean(payments.paypalMeUrl),
    paypalButtons: await listPaypalButtonsInCart(db, userId),
  }
}
