// Refunds across domains: orders/ gives the money back and revokes the lines' access; a refunded plan's
// subscriptions end, the service orders a refunded line bought are cancelled, creators give back their shares, a
// claimed gift's recipient is told, and the buyer's mail takes a white-label school's brand, in the same transaction,
// handed to orders/ as its RefundEffects. Staff see which refund requests are about a gift someone else holds.
import type { Actor } from '../audit/repository.ts'
import { reverseShares } from '../earnings/shares.ts'
import type { DB } from '../kernel/db.ts'
import { assignRefundLines as assignLines } from '../orders/refund-assignment.ts'
import {
  decideRefundRequest as decideRequest,
  listOpenRefundRequests,
  type RefundDecision,
} from '../orders/refund-requests.ts'
import { type RefundEffects, type RefundGateway, refundOrder as refund, type StaffRefund } from '../orders/refunds.ts'
import { listOrderLines } from '../orders/repository.ts'
import { giftOfOrderItem } from '../promotions/gifts.ts'
import { cancelServiceOrdersOfLines } from '../service-orders/given-back.ts'
import type { MailLinks } from '../service-orders/mails.ts'
import { endPlansOfOrder } from '../subscriptions/state.ts'
import { giftRecipients, giftsGivenBack } from './gift-delivery.ts'
import { brandOfOrderLines } from './school-domain.ts'
import { emitLinesGivenBack } from './webhook-events.ts'

/**
 * What a refund does beyond orders/. `links`: the shop's origin, for the links in a cancelled service order's e-mail
 * (the request's config, or the Stripe event's context; tests may leave it out, as processStripeEvent's).
 */
export function refundEffects(links: MailLinks = { publicUrl: '' }): RefundEffects {
  return {
    endPlansOfOrder,
    // The refund mail of a white-label school's order comes under its name, as its receipt did (decision 0063).
    brandOfOrder: async (trx, orderId) => brandOfOrderLines(trx, await listOrderLines(trx, orderId)),
    // Creators give back their shares, and the courses' schools hear of it (order.refunded, enrolment.revoked).
    async reverseCreatorShares(trx, orderItemIds, cause, source) {
      const reversed = await reverseShares(trx, orderItemIds, cause, source)
      await emitLinesGivenBack(trx, orderItemIds, cause)
      return reversed
    },
    // A service paid for and given back is not worked on (decision 0132).
    async cancelServiceOrdersOfLines(trx, orderItemIds, actor, at) {
      await cancelServiceOrdersOfLines(trx, orderItemIds, actor, links, at)
    },
    // A claimed gift given back takes the course from someone other than the buyer: they hear why (decision 0146).
    giftsGivenBack,
    async giftOfLine(trx, orderItemId) {
      const gift = await giftOfOrderItem(trx, orderItemId)
      return gift ? { recipientEmail: gift.recipient_email, claimedAt: gift.claimed_at?.toISOString() ?? null } : null
    },
  }
}

/** Staff refund of a whole order or chosen lines (through Stripe for a card order). */
export function refundOrder(db: DB, request: StaffRefund, gateway: RefundGateway | null, links?: MailLinks) {
  return refund(db, request, gateway, refundEffects(links))
}

/** Staff say which lines a partial dashboard refund gave back. */
export function assignRefundLines(
  db: DB,
  input: { refundId: string; lineIds: readonly string[] },
  actor: Actor,
  gateway: RefundGateway | null,
  links?: MailLinks,
) {
  return assignLines(db, input, actor, gateway, refundEffects(links))
}

/**
 * The refund requests waiting for staff, each saying whether its line is a gift and who holds it: approving one takes
 * the course from its recipient, not from the buyer who asks (decision 0146).
 */
export async function listRefundRequests(db: DB) {
  const requests = await listOpenRefundRequests(db)
  const gifts = await giftRecipients(db, [...new Set(requests.map((request) => request.orderId))])
  return requests.map((request) => {
    const gift = gifts.get(request.orderItemId)
    return { ...request, gift: gift ? { recipientEmail: gift.recipientEmail, claimedAt: gift.claimedAt } : null }
  })
}

/** Approve (the line is refunded) or decline a buyer's refund request. */
export function decideRefundRequest(
  db: DB,
  requestId: string,
  decision: RefundDecision,
  actor: Actor,
  gateway: RefundGateway | null,
  links?: MailLinks,
) {
  return decideRequest(db, requestId, decision, actor, gateway, refundEffects(links))
}
