// Frozen: staff suspend an account (fraud, abuse): while `suspended_at` is set no session is made for it and none it
// had is accepted. Who did it and the reason the person was told are kept beside it; lifting clears all three (the
// audit log keeps the history). Never import application code.
import type { Kysely } from 'kysely'

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('users')
    .addColumn('suspended_at', 'timestamptz')
    .addColumn('suspended_by', 'uuid', (column) => column.references('users.id').onDelete('set null'))
    .addColumn('suspension_reason', 'text')
    .execute()
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('users')
    .dropColumn('suspension_reason')
    .dropColumn('suspended_by')
    .dropColumn('suspended_at')
    .execute()
}
