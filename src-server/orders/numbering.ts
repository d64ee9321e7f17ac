// Gapless yearly numbers for invoices (INV-2026-000001) and credit notes (CN-2026-000001). The counter row is
// incremented inside the caller's transaction (the one that marks the order paid or records the refund): its row
// lock makes concurrent payments take turns, and a rolled-back payment rolls its number back, so no number is
// skipped or used twice.
import { sql } from 'kysely'
import type { DB } from '../kernel/db.ts'

export type DocumentKind = 'INV' | 'CN'

export async function nextDocumentNumber(trx: DB, kind: DocumentKind, at: Date): Promise<string> {
  const year = at.getUTCFullYear()
  const row = await trx
    .insertInto('document_counters')
    .values({ kind, year, last_number: 1 })
    .onConflict((oc) =>
      oc.columns(['kind', 'year']).doUpdateSet({ last_number: sql`document_counters.last_number + 1` }),
    )
    .returning('last_number')
    .executeTakeFirstOrThrow()
  return formatDocumentNumber(kind, year, row.last_number)
}

export function formatDocumentNumber(kind: DocumentKind, year: number, sequence: number): string {
  return `${kind}-${year}-${String(sequence).padStart(6, '0')}`
}
