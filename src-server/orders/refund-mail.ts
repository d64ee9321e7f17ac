// The buyer's e-mail about a refund, queued in the refund's transaction. A refund of an order of one white-label
// school's courses only is sent under the school's name and signed with it (the caller hands the brand in, as for
// the receipt: decision 0063).
import { formatMoney } from '../../src-shared/money.ts'
import type { DB } from '../kernel/db.ts'
import { enqueueMail } from '../mail/outbox.ts'
import { userContact } from '../users/contact.ts'

export async function sendRefundMail(
  trx: DB,
  order: { user_id: string; reference: string; currency: string },
  refund: { amountMinor: number; lines: readonly { title: string }[]; creditNoteNumber: string | null },
  brand?: { displayName: string } | null,
) {
  const user = await userContact(trx, order.user_id)
  if (!user) return
  const amount = formatMoney(refund.amountMinor, order.currency)
  const items = refund.lines.length ? `\n${refund.lines.map((line) => `- ${line.title}`).join('\n')}\n` : ''
  const signature = brand ? `\n\n${brand.displayName}` : ''
  const note = refund.creditNoteNumber ? `\nYour credit note ${refund.creditNoteNumber} is in My Account → Orders.` : ''
  await enqueueMail(trx, {
    kind: 'order_refunded',
    to: user.email,
    subject: `Refund of ${amount} for order ${order.reference}`,
    text: `Hi ${user.first_name || 'there'},\n\nWe have refunded ${amount} for order ${order.reference}.${items}${note}\n\nThe money usually reaches your account within 5–10 business days.${signature}`,
    ...(brand ? { fromName: brand.displayName } : {}),
  })
}
