// An erased account's orders (decision 0053): totals and lines stay for the accounts; the billing details go (the
// invoices keep their buyer block as issued, the legal record).
import type { DB } from '../kernel/db.ts'

export async function eraseBillingDetails(db: DB, userId: string) {
  await db
    .updateTable('orders')
    .set({
      billing_name: null,
      billing_email: null,
      billing_company: null,
      billing_address: null,
      billing_vat_number: null,
    })
    .where('user_id', '=', userId)
    .execute()
}
