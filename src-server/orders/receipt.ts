// The receipt e-mail of a paid order, queued in the outbox inside the payment's transaction.
import { formatMoney } from '../../src-shared/money.ts'
import type { DB } from '../db.ts'
import { enqueueMail } from '../mail/outbox.ts'
import { buyerContact } from './buyer.ts'

export async function sendReceipt(
  trx: DB,
  order: { user_id: string; reference: string; currency: string; total_minor: number },
  lines: readonly { title: string }[],
) {
  const user = await buyerContact(trx, order.user_id)
  if (!user) return
  const total = formatMoney(order.total_minor, order.currency)
  const items = lines.map((line) => `- ${line.title}`).join('\n')
  await enqueueMail(trx, {
    kind: 'order_paid',
    to: user.email,
    subject: `Payment received for order ${order.reference}`,
    text: `Hi ${user.first_name || 'there'},\n\nWe have received your payment of ${total} for order ${order.reference}:\n${items}\n\nThank you!`,
  })
}
