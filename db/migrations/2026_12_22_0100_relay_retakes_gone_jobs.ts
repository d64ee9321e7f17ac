// Frozen: the webhook and transcode relays also take rows whose job is gone without settling them (2026-12-22): a
// delivery still naming a job that failed before recording anything (a database failover), a transcode whose last
// try's worker died. Their partial indexes covered only rows without a job; they now cover every row still owed, so
// the relays' questions stay index scans. Never import application code here.
import { type Kysely, sql } from 'kysely'

export async function up(db: Kysely<any>): Promise<void> {
  await sql`drop index if exists webhook_deliveries_due_idx`.execute(db)
  await sql`create index webhook_deliveries_due_idx on webhook_deliveries (next_attempt_at)
    where delivered_at is null and failed_at is null`.execute(db)
  await sql`drop index if exists creator_uploads_transcode_queue_idx`.execute(db)
  await sql`create index creator_uploads_transcode_queue_idx on creator_uploads (finished_at)
    where transcode_status in ('queued', 'processing')`.execute(db)
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop index if exists creator_uploads_transcode_queue_idx`.execute(db)
  await sql`create index creator_uploads_transcode_queue_idx on creator_uploads (finished_at)
    where transcode_status = 'queued' and transcode_job_id is null`.execute(db)
  await sql`drop index if exists webhook_deliveries_due_idx`.execute(db)
  await sql`create index webhook_deliveries_due_idx on webhook_deliveries (next_attempt_at)
    where delivered_at is null and failed_at is null and job_id is null`.execute(db)
}
