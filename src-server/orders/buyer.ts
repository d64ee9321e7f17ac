// Who an order's e-mails go to: the buyer's address and first name.
import type { DB } from '../kernel/db.ts'

export function buyerContact(db: DB, userId: string) {
  return db.selectFrom('users').select(['email', 'first_name', 'last_name']).where('id', '=', userId).executeTakeFirst()
}
