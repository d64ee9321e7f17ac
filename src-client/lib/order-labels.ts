// How orders read in the shop and the admin area: one label per status and per payment method.
import type { RouterOutputs } from './types.ts'

type Order = RouterOutputs['admin']['orders']['list']['items'][number]

export const ORDER_STATUS_LABELS: Record<Order['status'], string> = {
  pending: 'Pending',
  awaiting_transfer: 'Awaiting transfer',
  paid: 'Paid',
  failed: 'Failed',
  cancelled: 'Cancelled',
  expired: 'Expired',
  partially_refunded: 'Partially refunded',
  refunded: 'Refunded',
  disputed: 'Disputed',
}

export const PAYMENT_METHOD_LABELS: Record<Order['method'], string> = {
  card: 'Card',
  paypal: 'PayPal',
  bank_transfer: 'Bank transfer',
  free: 'Free',
}
