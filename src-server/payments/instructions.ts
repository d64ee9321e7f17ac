// How an unpaid order can still be paid, shown with it on /account and the cart page until it is: the bank details
// and reference of a bank transfer, the PayPal.me link of a PayPal order.
import type { Currency } from '../../src-shared/money.ts'
import { type BankTransferDetails, bankDetailsFor } from './bank-details.ts'
import type { PaymentsConfig } from './config.ts'
import { paypalMeLink } from './paypal.ts'

const UNPAID = ['pending', 'awaiting_transfer']

export interface PaymentInstructions {
  bank: BankTransferDetails | null
  paypalUrl: string | null
}

export function paymentInstructions(
  payments: PaymentsConfig,
  order: { status: string; method: string; currency: Currency; totalMinor: number },
): PaymentInstructions {
  const unpaid = UNPAID.includes(order.status)
  return {
    bank: unpaid && order.method === 'bank_transfer' ? bankDetailsFor(payments.bank, order.currency) : null,
    paypalUrl:
      unpaid && order.method === 'paypal' && payments.paypalMeUrl
        ? paypalMeLink(payments.paypalMeUrl, order.totalMinor, order.currency)
        : null,
  }
}

/** The buyer's orders with what each unpaid one still needs. */
export function withPaymentInstructions<
  T extends { status: string; method: string; currency: Currency; totalMinor: number },
>(payments: PaymentsConfig, orders: T[]): (T & PaymentInstructions)[] {
  return orders.map((order) => ({ ...order, ...paymentInstructions(payments, order) }))
}
