// /admin/audit: the log a page at a time, or the entries about one account or made by it, found by its address (who
// changed a person's plan, who looked them up on /admin/customers, what a staff member did). The address is turned
// into the account's id here: the log keeps ids, and an erasure scrubs addresses from it (decision 0053).
import { ADMIN_PAGE_SIZE } from '../../src-shared/schemas/admin.ts'
import { listAudit } from '../audit/repository.ts'
import type { DB } from '../kernel/db.ts'
import { findAccountByEmail } from '../users/email.ts'

/** Twice the other staff lists' page: an entry is one short row. */
const AUDIT_PAGE_SIZE = ADMIN_PAGE_SIZE * 2

export async function auditLog(db: DB, input: { page: number; account?: string }) {
  if (!input.account) return { ...(await listAudit(db, input.page, AUDIT_PAGE_SIZE)), unknownAccount: false }
  const account = await findAccountByEmail(db, input.account)
  if (!account) return { items: [], total: 0, page: 1, pageCount: 1, unknownAccount: true }
  return { ...(await listAudit(db, input.page, AUDIT_PAGE_SIZE, account.id)), unknownAccount: false }
}
