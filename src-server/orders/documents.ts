// Reading an invoice or a credit note as it was issued, for its print page and its PDF: the buyer it names or staff
// (any role) may read it; anyone else is told it does not exist.
import type { DocumentLine, DocumentParty, TaxLine } from '../../db/types.ts'
import { isStaff, type Role } from '../../src-shared/roles.ts'
import type { DB } from '../kernel/db.ts'
import { DomainError } from '../kernel/errors.ts'

export type DocumentKind = 'invoice' | 'credit_note'

export interface PrintableDocument {
  kind: DocumentKind
  id: string
  number: string
  issuedAt: string
  currency: string
  seller: DocumentParty
  buyer: DocumentParty
  lines: DocumentLine[]
  taxLines: TaxLine[]
  subtotalMinor: number
  taxMinor: number
  totalMinor: number
  orderReference: string | null
  /** A credit note names the invoice it corrects. */
  invoiceNumber: string | null
}

export const DOCUMENT_NOT_FOUND = 'Document not found'

export async function readDocument(
  db: DB,
  viewer: { id: string; role: Role },
  kind: DocumentKind,
  id: string,
): Promise<PrintableDocument> {
  const document = kind === 'invoice' ? await readInvoice(db, id) : await readCreditNote(db, id)
  if (!document || (document.userId !== viewer.id && !isStaff(viewer.role))) {
    throw new DomainError('not_found', DOCUMENT_NOT_FOUND)
  }
  const { userId: _owner, ...printable } = document
  return printable
}

/** The columns an invoice and a credit note share: who issued what to whom, when, for which order. */
interface IssuedRow {
  id: string
  number: string
  user_id: string
  issued_at: Date
  currency: string
  seller: DocumentParty
  buyer: DocumentParty
  lines: DocumentLine[]
  reference: string | null
}

function issued(row: IssuedRow) {
  return {
    id: row.id,
    number: row.number,
    userId: row.user_id,
    issuedAt: row.issued_at.toISOString(),
    currency: row.currency,
    seller: row.seller,
    buyer: row.buyer,
    lines: row.lines,
    orderReference: row.reference,
  }
}

async function readInvoice(db: DB, id: string) {
  const row = await db
    .selectFrom('invoices as i')
    .leftJoin('orders as o', 'o.id', 'i.order_id')
    .select(['i.id', 'i.number', 'i.user_id', 'i.issued_at', 'i.currency', 'i.seller', 'i.buyer', 'i.lines'])
    .select(['i.tax_lines', 'i.subtotal_minor', 'i.tax_minor', 'i.total_minor', 'o.reference'])
    .where('i.id', '=', id)
    .executeTakeFirst()
  if (!row) return undefined
  return {
    kind: 'invoice' as const,
    ...issued(row),
    taxLines: row.tax_lines,
    subtotalMinor: row.subtotal_minor,
    taxMinor: row.tax_minor,
    totalMinor: row.total_minor,
    invoiceNumber: null,
  }
}

async function readCreditNote(db: DB, id: string) {
  const row = await db
    .selectFrom('credit_notes as cn')
    .innerJoin('invoices as i', 'i.id', 'cn.invoice_id')
    .leftJoin('orders as o', 'o.id', 'i.order_id')
    .select(['cn.id', 'cn.number', 'cn.user_id', 'cn.issued_at', 'cn.currency', 'cn.lines', 'cn.total_minor'])
    .select('cn.tax_minor')
    .select(['i.number as invoice_number', 'i.seller', 'i.buyer', 'o.reference'])
    .where('cn.id', '=', id)
    .executeTakeFirst()
  if (!row) return undefined
  return {
    kind: 'credit_note' as const,
    ...issued(row),
    // The tax given back, one line (the invoice's jurisdictions are not split again); none on older notes.
    taxLines: row.tax_minor > 0 ? [{ name: 'Tax', amountMinor: row.tax_minor }] : [],
    subtotalMinor: row.total_minor - row.tax_minor,
    taxMinor: row.tax_minor,
    totalMinor: row.total_minor,
    invoiceNumber: row.invoice_number,
  }
}
