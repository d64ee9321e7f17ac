// The 30-day money-back guarantee: a buyer asks for a refund of a course line (reason required, once per line,
// within 30 days of payment, not for a line already refunded); staff approve it (refunded as any staff refund) or
// decline it with a reason. Both sides are told by e-mail.

import { lineNetMinor } from '../../src-shared/money.ts'
import { REFUND_MESSAGES } from '../../src-shared/schemas/orders.ts'
import type * as audit from '../audit/repository.ts'
import * as clock from '../kernel/clock.ts'
import { type DB, inTransaction } from '../kernel/db.ts'
import { DomainError } from '../kernel/errors.ts'
import { enqueueMail } from '../mail/outbox.ts'
import { staffEmail } from '../mail/staff-address.ts'
import { adminEmails } from '../team/members.ts'
import { type RefundEffects, type RefundGateway, type RefundResult, refundOrder } from './refunds.ts'

export const REFUND_WINDOW_DAYS = 30
const DAY_MS = 24 * 60 * 60 * 1000
const UNIQUE_VIOLATION = '23505'

export async function requestRefund(
  db: DB,
  userId: string,
  input: { lineId: string; reason: string },
  now = clock.now(),
) {
  return inTransaction(db, async (trx) => {
    const line = await trx
      .selectFrom('order_items as i')
      .innerJoin('orders as o', 'o.id', 'i.order_id')
      .select([
        'i.id',
        'i.kind',
        'i.title',
        'i.refunded_at',
        'o.id as order_id',
        'o.reference',
        'o.status',
        'o.paid_at',
      ])
      .where('i.id', '=', input.lineId)
      .where('o.user_id', '=', userId)
      .executeTakeFirst()
    if (!line) throw new DomainError('not_found', 'Order line not found')
    if (line.kind !== 'course') throw new DomainError('invalid', REFUND_MESSAGES.onlyCourses)
    if (line.refunded_at) throw new DomainError('conflict', REFUND_MESSAGES.lineRefunded)
    if (!['paid', 'partially_refunded'].includes(line.status) || !line.paid_at) {
      throw new DomainError('invalid', REFUND_MESSAGES.notRefundable)
    }
    if (now.getTime() - line.paid_at.getTime() > REFUND_WINDOW_DAYS * DAY_MS) {
      throw new DomainError('invalid', REFUND_MESSAGES.requestWindow)
    }
    try {
      await trx
        .insertInto('refund_requests')
        .values({ order_item_id: line.id, order_id: line.order_id, user_id: userId, reason: input.reason })
        .execute()
    } catch (error) {
      if ((error as { code?: unknown }).code === UNIQUE_VIOLATION) {
        throw new DomainError('conflict', REFUND_MESSAGES.requestExists)
      }
      throw error
    }
    await mailStaff(trx, `Refund requested: ${line.title} (order ${line.reference})`, input.reason)
    return { lineId: line.id, status: 'open' as const }
  })
}

export function countOpenRefundRequests(db: DB): Promise<number> {
  return db
    .selectFrom('refund_requests')
    .select((eb) => eb.fn.countAll<string>().as('count'))
    .where('status', '=', 'open')
    .executeTakeFirstOrThrow()
    .then((row) => Number(row.count))
}

/** Refund requests (r) with the line (i) and order (o) they are about and the buyer (u) who asked. */
function requestsWithLine(db: DB) {
  return db
    .selectFrom('refund_requests as r')
    .innerJoin('order_items as i', 'i.id', 'r.order_item_id')
    .innerJoin('orders as o', 'o.id', 'r.order_id')
    .innerJoin('users as u', 'u.id', 'r.user_id')
}

/** The requests waiting for staff, oldest first. */
export async function listOpenRefundRequests(db: DB) {
  const rows = await requestsWithLine(db)
    .select([
      'r.id',
      'r.reason',
      'r.created_at',
      'i.id as order_item_id',
      'i.title',
      'i.unit_price_minor',
      'i.discount_minor',
      'o.id as order_id',
      'o.reference',
    ])
    .select(['o.currency', 'o.method', 'u.email'])
    .where('r.status', '=', 'open')
    .orderBy('r.created_at')
    .limit(100)
    .execute()
  return rows.map((row) => ({
    id: row.id,
    orderId: row.order_id,
    orderItemId: row.order_item_id,
    reference: row.reference,
    customerEmail: row.email,
    title: row.title,
    priceMinor: lineNetMinor(row),
    currency: row.currency,
    method: row.method,
    reason: row.reason,
    createdAt: row.created_at.toISOString(),
  }))
}

export type RefundDecision = { decision: 'approve'; reference?: string } | { decision: 'decline'; reason: string }

/** Approve (the line is refunded in the same transaction) or decline with a reason; decided once. */
export async function decideRefundRequest(
  db: DB,
  requestId: string,
  decision: RefundDecision,
  actor: audit.Actor,
  gateway: RefundGateway | null,
  effects: RefundEffects,
): Promise<{ status: 'approved' | 'declined'; refund: RefundResult | null }> {
  return inTransaction(db, async (trx) => {
    const request = await requestsWithLine(trx)
      .select(['r.id', 'r.status', 'r.order_id', 'r.order_item_id', 'i.title', 'o.reference', 'u.email'])
      .where('r.id', '=', requestId)
      .forUpdate('r')
      .executeTakeFirst()
    if (!request) throw new DomainError('not_found', 'Refund request not found')
    if (request.status !== 'open') throw new DomainError('conflict', 'This refund request has already been decided')
    const approved = decision.decision === 'approve'
    const refund = approved
      ? await refundOrder(
          trx,
          {
            orderId: request.order_id,
            lineIds: [request.order_item_id],
            reference: decision.reference,
            reason: 'Refund request approved',
            actor,
          },
          gateway,
          effects,
        )
      : null
    await trx
      .updateTable('refund_requests')
      .set({
        status: approved ? 'approved' : 'declined',
        decision_reason: approved ? null : decision.reason,
        decided_by: actor.id,
        decided_at: clock.now(),
      })
      .where('id', '=', request.id)
      .execute()
    if (approved) {
      // Besides the refund's own e-mail (the amount and the credit note): the answer to what the buyer asked. A gift's
      // course was never in the buyer's account: what ended is the gift, and its recipient's access (decision 0146).
      const gift = await effects.giftOfLine(trx, request.order_item_id)
      const after = !gift
        ? 'The course is no longer available in your account.'
        : gift.claimedAt
          ? `The gift is cancelled and ${gift.recipientEmail} no longer has the course; we have told them.`
          : `The gift is cancelled: ${gift.recipientEmail} can no longer claim it.`
      await enqueueMail(trx, {
        kind: 'refund_request_approved',
        to: request.email,
        subject: `Your refund request for ${request.title} (order ${request.reference}) is approved`,
        text: `Hello,\n\nWe have approved your refund request for ${request.title} and refunded it. A separate e-mail gives the amount and your credit note.\n\n${after}`,
      })
    } else {
      await enqueueMail(trx, {
        kind: 'refund_request_declined',
        to: request.email,
        // "Reply to this e-mail": the answer reaches the staff address, not the no-reply sender.
        replyTo: staffEmail(),
        subject: `Your refund request for ${request.title} (order ${request.reference})`,
        text: `Hello,\n\nWe have looked at your refund request for ${request.title} and cannot approve it:\n\n${decision.reason}\n\nReply to this e-mail if you would like to talk about it.`,
      })
    }
    return { status: approved ? ('approved' as const) : ('declined' as const), refund }
  })
}

async function mailStaff(trx: DB, subject: string, reason: string) {
  for (const email of await adminEmails(trx)) {
    await enqueueMail(trx, {
      kind: 'refund_requested',
      to: email,
      subject,
      text: `A buyer asked for a refund:\n\n${reason}\n\nApprove or decline it in the admin area → Orders.`,
    })
  }
}
