// Frozen: a gift addressed to an account's verified address follows that account when it moves to another address
// (decision 0163): the account it now waits for. Never import application code.
import type { Kysely } from 'kysely'

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('gifts')
    .addColumn('recipient_account_id', 'uuid', (col) => col.references('users.id').onDelete('set null'))
    .execute()
  await db.schema.createIndex('gifts_recipient_account_idx').on('gifts').column('recipient_account_id').execute()
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('gifts').dropColumn('recipient_account_id').execute()
}
