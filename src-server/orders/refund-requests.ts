// The 30-day money-back guarantee: a buyer asks for a refund of a course line (reason required, once per line,
// within 30 days of payment, not for a line already refunded); staff approve it (refunded as any staff refund) or
// decline it with a reason. Both sides are told by e-mail. A course bought in a bundle was sold at a share of the
// bundle's price: a request on it is a request for the bundle, covering the bundle's lines of that order not yet
// refunded, once per bundle (decision 0149). Staff's own refund tool stays per line.

import { lineNetMinor } from '../../src-shared/money.ts'
import { REFUND_MESSAGES } from '../../src-shared/schemas/orders.ts'
import type * as audit from '../audit/repository.ts'
import * as clock from '../kernel/clock.ts'
import { type DB, inTransaction } from '../kernel/db.ts'
import { DomainError } from '../kernel/errors.ts'
import { isUniqueViolation } from '../kernel/pg-errors.ts'
import { enqueueMail } from '../mail/outbox.ts'
import { staffEmail } from '../mail/staff-address.ts'
import { adminEmails } from '../team/members.ts'
import { type RefundEffects, type RefundGateway, type RefundResult, refundOrder } from './refunds.ts'

export const REFUND_WINDOW_DAYS = 30
const DAY_MS = 24 * 60 * 60 * 1000

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
      .select(['i.id', 'i.kind', 'i.title', 'i.refunded_at', 'i.bundle_id', 'i.bundle_title'])
      .select(['o.id as order_id', 'o.reference', 'o.status', 'o.paid_at'])
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
    const exists = line.bundle_id ? REFUND_MESSAGES.bundleRequestExists : REFUND_MESSAGES.requestExists
    // A request made before decision 0149 on another course of the bundle stands for that course: it is answered first.
    if (line.bundle_id && (await bundleHasRequest(trx, line.order_id, line.bundle_id))) {
      throw new DomainError('conflict', exists)
    }
    try {
      await trx
        .insertInto('refund_requests')
        .values({
          order_item_id: line.id,
          order_id: line.order_id,
          user_id: userId,
          reason: input.reason,
          bundle_id: line.bundle_id,
        })
        .execute()
    } catch (error) {
      // One request per line, and per bundle of an order (the unique indexes decide between two sent at once).
      if (isUniqueViolation(error)) throw new DomainError('conflict', exists)
      throw error
    }
    await mailStaff(trx, `Refund requested: ${requestedItem(line)} (order ${line.reference})`, input.reason)
    return { lineId: line.id, status: 'open' as const }
  })
}

/** What a request is about, as the mails name it: the course, or the bundle it was bought in. */
function requestedItem(line: { title: string; bundle_id: string | null; bundle_title: string | null }): string {
  return line.bundle_id ? `the bundle “${line.bundle_title ?? line.title}”` : line.title
}

async function bundleHasRequest(trx: DB, orderId: string, bundleId: string): Promise<boolean> {
  const found = await trx
    .selectFrom('refund_requests as r')
    .innerJoin('order_items as i', 'i.id', 'r.order_item_id')
    .select('r.id')
    .where('r.order_id', '=', orderId)
    .where('i.bundle_id', '=', bundleId)
    .executeTakeFirst()
  return Boolean(found)
}

/**
 * The lines each request covers, by request id: a bundle request's lines of its bundle in that order not yet refunded,
 * in the order's line order; any other request's own line.
 */
async function linesCovered(
  db: DB,
  requests: readonly { id: string; order_id: string; order_item_id: string; bundle_id: string | null }[],
) {
  const bundled = requests.filter((request) => request.bundle_id)
  const lines = bundled.length
    ? await db
        .selectFrom('order_items')
        .select(['id', 'order_id', 'bundle_id', 'title', 'unit_price_minor', 'discount_minor', 'refunded_at'])
        .where(
          'order_id',
          'in',
          bundled.map((request) => request.order_id),
        )
        .where('bundle_id', 'is not', null)
        .orderBy('id')
        .execute()
    : []
  return new Map(
    requests.map((request) => [
      request.id,
      request.bundle_id
        ? lines.filter(
            (line) => line.order_id === request.order_id && line.bundle_id === request.bundle_id && !line.refunded_at,
          )
        : null,
    ]),
  )
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

/** The requests waiting for staff, oldest first; a bundle request names the bundle and the courses it gives back. */
export async function listOpenRefundRequests(db: DB) {
  const rows = await requestsWithLine(db)
    .select(['r.id', 'r.reason', 'r.created_at', 'r.order_id', 'r.order_item_id', 'r.bundle_id'])
    .select(['i.title', 'i.bundle_title', 'i.unit_price_minor', 'i.discount_minor'])
    .select(['o.reference', 'o.currency', 'o.method', 'u.email'])
    .where('r.status', '=', 'open')
    .orderBy('r.created_at')
    .limit(100)
    .execute()
  const covered = await linesCovered(db, rows)
  return rows.map((row) => {
    const bundleLines = covered.get(row.id)
    return {
      id: row.id,
      orderId: row.order_id,
      orderItemId: row.order_item_id,
      reference: row.reference,
      customerEmail: row.email,
      title: row.title,
      /** A bundle request: the bundle's title as sold and the courses approving gives back. */
      bundle: bundleLines
        ? { title: row.bundle_title ?? row.title, courses: bundleLines.map((line) => line.title) }
        : null,
      priceMinor: (bundleLines ?? [row]).reduce((sum, line) => sum + lineNetMinor(line), 0),
      currency: row.currency,
      method: row.method,
      reason: row.reason,
      createdAt: row.created_at.toISOString(),
    }
  })
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
      .select(['r.id', 'r.status', 'r.order_id', 'r.order_item_id', 'r.bundle_id'])
      .select(['i.title', 'i.bundle_title', 'o.reference', 'u.email'])
      .where('r.id', '=', requestId)
      .forUpdate('r')
      .executeTakeFirst()
    if (!request) throw new DomainError('not_found', 'Refund request not found')
    if (request.status !== 'open') throw new DomainError('conflict', 'This refund request has already been decided')
    const approved = decision.decision === 'approve'
    // A bundle request gives back the bundle's lines still held; none left, the line asked from is named so that the
    // refund says it is refunded already.
    const bundleLines = (await linesCovered(trx, [request])).get(request.id)
    const lineIds = bundleLines?.length ? bundleLines.map((line) => line.id) : [request.order_item_id]
    const item = requestedItem(request)
    const refund = approved
      ? await refundOrder(
          trx,
          {
            orderId: request.order_id,
            lineIds,
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
        ? bundleLines
          ? 'The courses of the bundle are no longer available in your account.'
          : 'The course is no longer available in your account.'
        : gift.claimedAt
          ? `The gift is cancelled and ${gift.recipientEmail} no longer has the course; we have told them.`
          : `The gift is cancelled: ${gift.recipientEmail} can no longer claim it.`
      await enqueueMail(trx, {
        kind: 'refund_request_approved',
        to: request.email,
        subject: `Your refund request for ${item} (order ${request.reference}) is approved`,
        text: `Hello,\n\nWe have approved your refund request for ${item} and refunded it. A separate e-mail gives the amount and your credit note.\n\n${after}`,
      })
    } else {
      await enqueueMail(trx, {
        kind: 'refund_request_declined',
        to: request.email,
        // "Reply to this e-mail": the answer reaches the staff address, not the no-reply sender.
        replyTo: staffEmail(),
        subject: `Your refund request for ${item} (order ${request.reference})`,
        text: `Hello,\n\nWe have looked at your refund request for ${item} and cannot approve it:\n\n${decision.reason}\n\nReply to this e-mail if you would like to talk about it.`,
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
