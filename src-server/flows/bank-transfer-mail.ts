// The e-mail with a bank-transfer order's details and reference, queued with the order it belongs to.
import { formatMoney } from '../../src-shared/money.ts'
import type { DB } from '../kernel/db.ts'
import { enqueueMail } from '../mail/outbox.ts'
import type { BankTransferDetails } from '../payments/bank-details.ts'
import { userContact } from '../users/contact.ts'

export async function sendBankDetails(
  trx: DB,
  userId: string,
  order: { reference: string; totalMinor: number; currency: string },
  bank: BankTransferDetails,
): Promise<void> {
  const user = await userContact(trx, userId)
  if (!user) return
  const routing = bank.currency === 'GBP' ? `Sort Code: ${bank.sortCode}` : `Routing Number: ${bank.routingNumber}`
  const details = [
    `Bank Name: ${bank.bankName}`,
    `Account Name: ${bank.accountName}`,
    `Account Number: ${bank.accountNumber}`,
    routing,
    `SWIFT Code: ${bank.swiftCode}`,
    `Payment Reference: ${order.reference}`,
  ].join('\n')
  await enqueueMail(trx, {
    kind: 'bank_transfer_details',
    to: user.email,
    subject: `Bank transfer details for order ${order.reference}`,
    text: `Hi ${user.first_name || 'there'},\n\nPlease transfer ${formatMoney(order.totalMinor, order.currency)} to the account below and quote the payment reference so we can match your payment:\n\n${details}\n\nThe details stay on your order in My Account until we confirm the payment (usually within 24 hours of it arriving). An order not paid within 7 days expires.`,
  })
}
