// The receipt e-mail of a paid order, queued in the outbox inside the payment's transaction. An order that started
// a free trial says what it took now (its other lines, or nothing) and when the plan is first charged. An order of one
// white-label school's courses only is sent under the school's name and signed with it (decision 0063). A gift's
// receipt says whom the gift is for and when they are e-mailed (decision 0146): the buyer gets nothing themselves.
import { formatDate } from '../../src-shared/dates.ts'
import { trialChargeText, trialStartedText } from '../../src-shared/membership.ts'
import { formatMoney } from '../../src-shared/money.ts'
import type { DB } from '../kernel/db.ts'
import { enqueueMail } from '../mail/outbox.ts'
import { userContact } from '../users/contact.ts'

export async function sendReceipt(
  trx: DB,
  order: { id: string; user_id: string; reference: string; currency: string; total_minor: number },
  lines: readonly { title: string }[],
  brand?: { displayName: string } | null,
  gift?: { recipientEmail: string; sendAt: Date; paidAt: Date } | null,
) {
  const user = await userContact(trx, order.user_id)
  if (!user) return
  const total = formatMoney(order.total_minor, order.currency)
  const items = lines.map((line) => `- ${line.title}`).join('\n')
  const signature = brand ? `\n\n${brand.displayName}` : ''
  const trial = await trx
    .selectFrom('subscriptions')
    .select(['trial_ends_at', 'amount_minor', 'currency'])
    .where('order_id', '=', order.id)
    .where('status', '=', 'trialing')
    .executeTakeFirst()
  if (trial?.trial_ends_at) {
    const told = trialStartedText(trial.amount_minor ?? 0, trial.currency ?? order.currency, trial.trial_ends_at)
    await enqueueMail(trx, {
      kind: 'order_paid',
      to: user.email,
      subject: `Free trial started for order ${order.reference}`,
      text: `Hi ${user.first_name || 'there'},\n\n${told}.\n${items}\n\n${trialChargeText(order.total_minor, order.currency)}.\n\nThank you!`,
    })
    return
  }
  const when = gift && gift.sendAt.getTime() > gift.paidAt.getTime() ? `on ${formatDate(gift.sendAt)}` : 'now'
  const forGift = gift
    ? `\n\nThis is your gift for ${gift.recipientEmail}: we e-mail them a link to claim it ${when}. You can follow it, or send it to another address, in My Account → Gifts you bought.`
    : ''
  await enqueueMail(trx, {
    kind: 'order_paid',
    to: user.email,
    subject: gift
      ? `Payment received for your gift to ${gift.recipientEmail} (order ${order.reference})`
      : `Payment received for order ${order.reference}`,
    text: `Hi ${user.first_name || 'there'},\n\nWe have received your payment of ${total} for order ${order.reference}:\n${items}${forGift}\n\nThank you!${signature}`,
    ...(brand ? { fromName: brand.displayName } : {}),
  })
}
