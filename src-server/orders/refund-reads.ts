// Read side of refunds for staff: one order with its lines (refunded or not), documents, refunds and the buyer's
// refund requests; and how many requests wait for a decision (the Orders badge).
import type { DB } from '../kernel/db.ts'
import { DomainError } from '../kernel/errors.ts'
import { paidOfLine } from './paid-line.ts'
import { ORDER_NOT_FOUND } from './pending.ts'
import { creditNotesOfOrder, renewalInvoicesOfOrder } from './repository.ts'

export async function orderDetailForStaff(db: DB, orderId: string) {
  const order = await db
    .selectFrom('orders as o')
    .innerJoin('users as u', 'u.id', 'o.user_id')
    .select(['o.id', 'o.reference', 'o.status', 'o.method', 'o.currency', 'o.total_minor', 'o.captured_minor'])
    .select(['o.refunded_minor', 'u.email'])
    .where('o.id', '=', orderId)
    .executeTakeFirst()
  if (!order) throw new DomainError('not_found', ORDER_NOT_FOUND)
  const [lines, invoice, renewalInvoices, creditNotes, refunds, requests] = await Promise.all([
    db
      .selectFrom('order_items')
      .select(['id', 'kind', 'title', 'detail', 'unit_price_minor', 'discount_minor', 'refunded_at', 'free_trial'])
      .where('order_id', '=', orderId)
      .orderBy('id')
      .execute(),
    db.selectFrom('invoices').select(['id', 'number']).where('order_id', '=', orderId).executeTakeFirst(),
    renewalInvoicesOfOrder(db, orderId),
    // With those of its subscription's renewals (or its service's months), as the buyer's history lists them.
    creditNotesOfOrder(db, orderId),
    db
      .selectFrom('refunds')
      .select(['id', 'amount_minor', 'method', 'reference', 'created_at', 'needs_line_assignment'])
      .where('order_id', '=', orderId)
      .orderBy('created_at')
      .execute(),
    db
      .selectFrom('refund_requests')
      .select(['id', 'order_item_id', 'reason', 'status', 'decision_reason', 'created_at'])
      .where('order_id', '=', orderId)
      .orderBy('created_at')
      .execute(),
  ])
  return {
    id: order.id,
    reference: order.reference,
    status: order.status,
    method: order.method,
    currency: order.currency,
    customerEmail: order.email,
    totalMinor: order.total_minor,
    capturedMinor: order.captured_minor,
    refundedMinor: order.refunded_minor,
    lines: lines.map((line) => ({
      id: line.id,
      kind: line.kind,
      title: line.title,
      detail: line.detail,
      // What the line took: a plan line in its free trial took nothing (decision 0089).
      priceMinor: paidOfLine(line),
      freeTrial: line.free_trial,
      refunded: Boolean(line.refunded_at),
    })),
    invoice: invoice ?? null,
    renewalInvoices: renewalInvoices.map((row) => ({ id: row.id, number: row.number })),
    creditNotes: creditNotes.map((note) => ({ id: note.id, number: note.number, totalMinor: note.total_minor })),
    refunds: refunds.map((refund) => ({
      id: refund.id,
      amountMinor: refund.amount_minor,
      method: refund.method,
      reference: refund.reference,
      createdAt: refund.created_at.toISOString(),
      needsLineAssignment: refund.needs_line_assignment,
    })),
    requests: requests.map((request) => ({
      id: request.id,
      lineId: request.order_item_id,
      reason: request.reason,
      status: request.status,
      decisionReason: request.decision_reason,
      createdAt: request.created_at.toISOString(),
    })),
  }
}
