// Frozen: outbox rows handed to the job queue, as of 2026-11-23. Never import application code here.
// job_id is the queue job that delivers the row; rows still without one are what the relay picks up.
import { type Kysely, sql } from 'kysely'

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('mail_outbox').addColumn('job_id', 'uuid').execute()
  await db.schema
    .createIndex('mail_outbox_unqueued_idx')
    .on('mail_outbox')
    .column('created_at')
    .where(sql.ref('status'), '=', 'pending')
    .where(sql.ref('job_id'), 'is', null)
    .execute()
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('mail_outbox_unqueued_idx').ifExists().execute()
  await db.schema.alterTable('mail_outbox').dropColumn('job_id').execute()
}
