// Frozen: the accounts suspended now, found without reading every account (the monthly payout run holds theirs,
// decision 0164). Never import application code.
import { type Kysely, sql } from 'kysely'

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createIndex('users_suspended_idx')
    .on('users')
    .column('id')
    .where(sql.ref('suspended_at'), 'is not', null)
    .execute()
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('users_suspended_idx').execute()
}
