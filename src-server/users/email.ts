// E-mail addresses are unique regardless of case (the index is on lower(email)); every lookup goes through here.
import type { ExpressionBuilder } from 'kysely'
import type { Database } from '../../db/types.ts'
import type { DB } from '../kernel/db.ts'

export function normaliseEmail(email: string): string {
  return email.trim().toLowerCase()
}

/** A where-clause matching the user with this e-mail address, in any case. */
export function userEmailIs(email: string) {
  return (eb: ExpressionBuilder<Database, 'users'>) => eb(eb.fn('lower', ['email']), '=', normaliseEmail(email))
}

/** The account with this address (any case), or undefined. */
export function findUserByEmail(db: DB, email: string) {
  return db.selectFrom('users').select(['id', 'email', 'email_verified']).where(userEmailIs(email)).executeTakeFirst()
}

/** The account staff look up by its address (/admin/customers): who it is, since when, and whether it is verified. */
export function findAccountByEmail(db: DB, email: string) {
  return db
    .selectFrom('users')
    .select(['id', 'email', 'first_name', 'last_name', 'role', 'email_verified', 'created_at'])
    .where(userEmailIs(email))
    .executeTakeFirst()
}
