// Invoices and credit notes: issued in the transaction that takes or gives back the money, numbered gaplessly per
// year (numbering.ts), with the seller, the buyer, the lines, the tax lines and the totals snapshotted so an issued
// document never changes. Subscription renewals paid through Stripe use the same series (recordSubscriptionInvoice).
import type { DocumentLine, DocumentParty, TaxLine } from '../../db/types.ts'
import { allocate, formatMoney } from '../../src-shared/money.ts'
import { fullName } from '../../src-shared/names.ts'
import type { DB } from '../kernel/db.ts'
import { userContact } from '../users/contact.ts'
import { nextDocumentNumber } from './numbering.ts'
import { paidOfLine } from './paid-line.ts'
import { sellerParty } from './seller.ts'

const json = (value: unknown) => JSON.stringify(value)

/** Stripe Tax's lines per jurisdiction when they were recorded (and add up), else one "Tax" line. */
function taxLinesOf(taxMinor: number, recorded: readonly TaxLine[] = []): TaxLine[] {
  const sum = recorded.reduce((total, line) => total + line.amountMinor, 0)
  if (recorded.length && sum === taxMinor) return [...recorded]
  return taxMinor > 0 ? [{ name: 'Tax', amountMinor: taxMinor }] : []
}

/** The invoice of a paid order (once: a second call returns the first). Nothing is invoiced when nothing was taken. */
export async function issueOrderInvoice(trx: DB, orderId: string, paidAt: Date): Promise<string | null> {
  const existing = await trx.selectFrom('invoices').select('number').where('order_id', '=', orderId).executeTakeFirst()
  if (existing) return existing.number
  const order = await trx
    .selectFrom('orders as o')
    .innerJoin('users as u', 'u.id', 'o.user_id')
    .select([
      'o.id',
      'o.user_id',
      'o.currency',
      'o.tax_minor',
      'o.tax_lines',
      'o.captured_minor',
      'o.billing_name',
      'o.billing_email',
      'o.billing_company',
      'o.billing_address',
      'o.billing_vat_number',
      'u.email',
      'u.first_name',
      'u.last_name',
    ])
    .where('o.id', '=', orderId)
    .executeTakeFirstOrThrow()
  // A free trial or a free course: no money taken, no invoice.
  if (order.captured_minor <= 0) return null
  const items = await trx
    .selectFrom('order_items')
    .select(['id', 'title', 'detail', 'unit_price_minor', 'discount_minor', 'free_trial'])
    .where('order_id', '=', orderId)
    .orderBy('id')
    .execute()
  // A discounted line is invoiced at what was paid for it (its stored share of the coupon taken off), and says so; a
  // line in its free trial at 0 (its first charge gets the subscription invoice's own number when the trial ends).
  const lines: DocumentLine[] = items.map((item) => ({
    title: item.title,
    detail: item.free_trial
      ? [item.detail, 'Free trial'].filter(Boolean).join(' · ')
      : item.discount_minor > 0
        ? [
            item.detail,
            `${formatMoney(item.unit_price_minor, order.currency)} less coupon ${formatMoney(item.discount_minor, order.currency)}`,
          ]
            .filter(Boolean)
            .join(' · ')
        : item.detail,
    quantity: 1,
    unitMinor: paidOfLine(item),
    amountMinor: paidOfLine(item),
    orderItemId: item.id,
  }))
  const buyer: DocumentParty = {
    name: order.billing_name || fullName(order.first_name, order.last_name) || order.email,
    email: order.billing_email || order.email,
    company: order.billing_company,
    address: order.billing_address,
    vatNumber: order.billing_vat_number,
  }
  return insertInvoice(trx, {
    userId: order.user_id,
    orderId: order.id,
    stripeInvoiceId: null,
    currency: order.currency,
    buyer,
    lines,
    taxMinor: order.tax_minor,
    taxLines: taxLinesOf(order.tax_minor, order.tax_lines),
    issuedAt: paidAt,
  })
}

export interface PaidSubscriptionInvoice {
  userId: string
  /** Stripe's invoice id (in_…): a redelivered invoice.paid finds its invoice and issues nothing. */
  stripeInvoiceId: string
  currency: string
  lines: { title: string; detail?: string; amountMinor: number }[]
  taxMinor?: number
  paidAt: Date
}

/** For invoice.paid of a subscription: the same numbering as orders; idempotent on the Stripe invoice id. */
export async function recordSubscriptionInvoice(trx: DB, paid: PaidSubscriptionInvoice): Promise<string> {
  const existing = await trx
    .selectFrom('invoices')
    .select('number')
    .where('stripe_invoice_id', '=', paid.stripeInvoiceId)
    .executeTakeFirst()
  if (existing) return existing.number
  const user = await userContact(trx, paid.userId)
  if (!user) throw new Error(`No user ${paid.userId} for Stripe invoice ${paid.stripeInvoiceId}`)
  const lines: DocumentLine[] = paid.lines.map((line) => ({
    title: line.title,
    detail: line.detail ?? '',
    quantity: 1,
    unitMinor: line.amountMinor,
    amountMinor: line.amountMinor,
  }))
  const tax = paid.taxMinor ?? 0
  return insertInvoice(trx, {
    userId: paid.userId,
    orderId: null,
    stripeInvoiceId: paid.stripeInvoiceId,
    currency: paid.currency.toUpperCase(),
    buyer: { name: fullName(user.first_name, user.last_name) || user.email, email: user.email },
    lines,
    taxMinor: tax,
    taxLines: taxLinesOf(tax),
    issuedAt: paid.paidAt,
  })
}

/** Numbers and stores an invoice of an order or a renewal, with the seller of today and the totals of its lines. */
async function insertInvoice(
  trx: DB,
  invoice: {
    userId: string
    orderId: string | null
    stripeInvoiceId: string | null
    currency: string
    buyer: DocumentParty
    lines: DocumentLine[]
    taxMinor: number
    taxLines: TaxLine[]
    issuedAt: Date
  },
): Promise<string> {
  const subtotal = invoice.lines.reduce((sum, line) => sum + line.amountMinor, 0)
  const number = await nextDocumentNumber(trx, 'INV', invoice.issuedAt)
  await trx
    .insertInto('invoices')
    .values({
      number,
      user_id: invoice.userId,
      order_id: invoice.orderId,
      stripe_invoice_id: invoice.stripeInvoiceId,
      currency: invoice.currency,
      seller: json(sellerParty()),
      buyer: json(invoice.buyer),
      lines: json(invoice.lines),
      tax_lines: json(invoice.taxLines),
      subtotal_minor: subtotal,
      tax_minor: invoice.taxMinor,
      total_minor: subtotal + invoice.taxMinor,
      issued_at: invoice.issuedAt,
    })
    .execute()
  return number
}

/** The invoice a credit note refers to: an order's, or a renewal's by its Stripe invoice. */
function creditedInvoice(trx: DB, by: 'order_id' | 'stripe_invoice_id', value: string) {
  return trx
    .selectFrom('invoices')
    .select(['id', 'user_id', 'currency', 'tax_minor'])
    .where(by, '=', value)
    .executeTakeFirst()
}

/** An order's refund, as its credit note is issued. */
export interface OrderCreditNote {
  id: string
  orderId: string
  amountMinor: number
  /** The lines given back, each at what was paid for it; none for a refund that named no lines. */
  lines: DocumentLine[]
  /** The one line's title when it names none ("Refund", "Chargeback (dispute lost)"). */
  untitledAs: string
  /** This refund gives back the last of the captured money. */
  completesOrder: boolean
  capturedMinor: number
  at: Date
}

/**
 * The credit note of a refund, referencing the order's invoice; null when the order was never invoiced. Its tax is the
 * part of the refund that was the invoice's tax, never more than the tax not yet given back: all that is left of it for
 * the refund that completes the order; for lines refunded for their share, what the refund is beyond their prices;
 * else the refund's share in the invoice's proportion (largest remainder). Its lines sum to the total less the tax: a
 * refund capped below its lines' prices (an earlier refund named none) shows the difference as a line of its own.
 */
export async function issueCreditNote(trx: DB, refund: OrderCreditNote): Promise<string | null> {
  const invoice = await creditedInvoice(trx, 'order_id', refund.orderId)
  if (!invoice) return null
  const sums = await trx
    .selectFrom('credit_notes')
    .select((eb) => [
      eb.fn.coalesce(eb.fn.sum<number | string>('tax_minor'), eb.lit(0)).as('tax'),
      eb.fn.coalesce(eb.fn.sum<number | string>('total_minor'), eb.lit(0)).as('total'),
    ])
    .where('invoice_id', '=', invoice.id)
    .executeTakeFirstOrThrow()
  const given = { tax: Number(sums.tax), total: Number(sums.total) }
  const taxLeft = Math.max(0, invoice.tax_minor - given.tax)
  const amount = refund.amountMinor
  const priced = refund.lines.reduce((sum, line) => sum + line.amountMinor, 0)
  // A refund naming no lines: the tax of everything given back so far, split once by largest remainder, less the tax
  // given back before (decision 0116). A split of each refund on its own rounded each time, and the roundings added up.
  const weights = [Math.max(0, refund.capturedMinor - invoice.tax_minor), invoice.tax_minor]
  const taxOf = refund.completesOrder
    ? taxLeft
    : refund.lines.length > 0 && amount >= priced
      ? amount - priced
      : allocate(given.total + amount, weights)[1]! - given.tax
  const tax = Math.max(0, Math.min(taxOf, taxLeft, amount))
  const net = amount - tax
  const lines: DocumentLine[] = refund.lines.length
    ? net === priced
      ? refund.lines
      : [
          ...refund.lines,
          { title: EARLIER_REFUNDS_LINE, quantity: 1, unitMinor: net - priced, amountMinor: net - priced },
        ]
    : [{ title: refund.untitledAs, quantity: 1, unitMinor: net, amountMinor: net }]
  return insertCreditNote(
    trx,
    invoice,
    { refund_id: refund.id },
    { amountMinor: amount, taxMinor: tax, lines, at: refund.at },
  )
}

/** The line that squares a credit note's lines with its total when earlier refunds took part of their money. */
export const EARLIER_REFUNDS_LINE = 'Adjustment for earlier refunds on this order'

/**
 * The credit note of a refund of a paid subscription invoice (a renewal), referencing the renewal's numbered invoice;
 * null when it was never numbered (nothing was taken).
 */
export async function issueSubscriptionCreditNote(
  trx: DB,
  refund: { id: string; stripeInvoiceId: string; amountMinor: number; lines: DocumentLine[]; at: Date },
): Promise<string | null> {
  const invoice = await creditedInvoice(trx, 'stripe_invoice_id', refund.stripeInvoiceId)
  if (!invoice) return null
  return insertCreditNote(trx, invoice, { subscription_refund_id: refund.id }, refund)
}

async function insertCreditNote(
  trx: DB,
  invoice: { id: string; user_id: string; currency: string },
  source: { refund_id: string } | { subscription_refund_id: string },
  refund: { amountMinor: number; taxMinor?: number; lines: DocumentLine[]; at: Date },
): Promise<string> {
  const number = await nextDocumentNumber(trx, 'CN', refund.at)
  await trx
    .insertInto('credit_notes')
    .values({
      number,
      invoice_id: invoice.id,
      ...source,
      user_id: invoice.user_id,
      currency: invoice.currency,
      lines: json(refund.lines),
      total_minor: refund.amountMinor,
      tax_minor: refund.taxMinor ?? 0,
      issued_at: refund.at,
    })
    .execute()
  return number
}
