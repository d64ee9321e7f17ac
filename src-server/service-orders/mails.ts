// The e-mails of the service-order workflow, each written to the outbox in the caller's transaction.
import { SERVICE_ORDER_STATUS_LABELS, type ServiceOrderStatus } from '../../src-shared/service-orders.ts'
import type { DB } from '../kernel/db.ts'
import { enqueueMail } from '../mail/outbox.ts'
import { staffEmail } from '../mail/staff-address.ts'

export interface MailLinks {
  publicUrl: string
}

const buyerLink = (links: MailLinks, id: string) => `${links.publicUrl}/account/services/${id}`
const staffLink = (links: MailLinks, id: string) => `${links.publicUrl}/admin/service-orders/${id}`

/** Where staff-side mail goes: the assignee when there is one, else the team's inbox. */
async function staffRecipient(trx: DB, orderId: string): Promise<string> {
  const row = await trx
    .selectFrom('service_orders')
    .leftJoin('users', 'users.id', 'service_orders.assignee_id')
    .select('users.email')
    .where('service_orders.id', '=', orderId)
    .executeTakeFirst()
  return row?.email ?? staffEmail()
}

async function buyerOf(trx: DB, orderId: string) {
  return trx
    .selectFrom('service_orders')
    .innerJoin('users', 'users.id', 'service_orders.user_id')
    .select(['users.email', 'users.first_name', 'service_orders.title'])
    .where('service_orders.id', '=', orderId)
    .executeTakeFirstOrThrow()
}

export async function mailNewMessage(trx: DB, orderId: string, fromStaff: boolean, body: string, links: MailLinks) {
  const buyer = await buyerOf(trx, orderId)
  const to = fromStaff ? buyer.email : await staffRecipient(trx, orderId)
  const link = fromStaff ? buyerLink(links, orderId) : staffLink(links, orderId)
  await enqueueMail(trx, {
    kind: 'service-order-message',
    to,
    subject: `New message about ${buyer.title}`,
    text: [fromStaff ? `Hi ${buyer.first_name},` : `${buyer.email} wrote:`, '', body, '', `Reply: ${link}`].join('\n'),
  })
}

/** The buyer hears of every status change staff or the scheduler make; `why` replaces the status's usual line. */
export async function mailStatusToBuyer(
  trx: DB,
  orderId: string,
  status: ServiceOrderStatus,
  links: MailLinks,
  why?: string,
) {
  const buyer = await buyerOf(trx, orderId)
  const lines: Record<string, string> = {
    brief_needed: 'We need a few changes to your brief before we can continue.',
    in_progress: 'We have started work on your order.',
    delivered: 'Your delivery is ready: review it, then accept it or request a revision.',
    completed: 'Your order is complete. Thank you!',
    cancelled: 'Your order has been cancelled. Reply to this e-mail if you have questions.',
  }
  await enqueueMail(trx, {
    kind: `service-order-${status.replaceAll('_', '-')}`,
    to: buyer.email,
    // A buyer's answer (the cancellation says "reply to this e-mail") reaches the staff address, not the no-reply sender.
    replyTo: staffEmail(),
    subject: `${buyer.title}: ${SERVICE_ORDER_STATUS_LABELS[status]}`,
    text: [`Hi ${buyer.first_name},`, '', why ?? lines[status] ?? '', '', buyerLink(links, orderId)].join('\n'),
  })
}

/** Staff hear of what the buyer does: a submitted brief, a revision request, an accepted delivery. */
export async function mailStatusToStaff(trx: DB, orderId: string, status: ServiceOrderStatus, links: MailLinks) {
  const buyer = await buyerOf(trx, orderId)
  await enqueueMail(trx, {
    kind: `service-order-${status.replaceAll('_', '-')}`,
    to: await staffRecipient(trx, orderId),
    subject: `${buyer.title}: ${SERVICE_ORDER_STATUS_LABELS[status]}`,
    text: [`${buyer.email}: ${SERVICE_ORDER_STATUS_LABELS[status]}.`, '', staffLink(links, orderId)].join('\n'),
  })
}

/** A note to the buyer that is not a status change (a monthly report of a recurring order). */
export async function mailToBuyer(trx: DB, orderId: string, line: string, links: MailLinks) {
  const buyer = await buyerOf(trx, orderId)
  await enqueueMail(trx, {
    kind: 'service-order-report',
    to: buyer.email,
    subject: `${buyer.title}: ${line.replace(/\.$/, '')}`,
    text: [`Hi ${buyer.first_name},`, '', line, '', buyerLink(links, orderId)].join('\n'),
  })
}
