// Frozen: adaptive video (issue 37). A stored upload is transcoded on the job queue into HLS renditions and a poster
// stored beside it; the row says how far that got. Never import application code here.
import { type Kysely, sql } from 'kysely'

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('creator_uploads')
    // null: never asked (an upload stored before this); 'unavailable': no ffmpeg, plays as uploaded.
    .addColumn('transcode_status', 'text', (c) =>
      c.check(sql`transcode_status in ('queued','processing','ready','failed','unavailable')`),
    )
    .addColumn('transcode_percent', 'smallint', (c) =>
      c.notNull().defaultTo(0).check(sql`transcode_percent between 0 and 100`),
    )
    // The queue's job id once the relay put the row on the queue (a 'queued' row without it is waiting to be relayed).
    .addColumn('transcode_job_id', 'text')
    // The renditions' storage prefix (ends with '/'), and their heights ("360,720"), once ready.
    .addColumn('hls_prefix', 'text')
    .addColumn('hls_heights', 'text')
    .addColumn('transcoded_at', 'timestamptz')
    .execute()
  await sql`create index creator_uploads_storage_key_idx on creator_uploads (storage_key)`.execute(db)
  await sql`create index creator_uploads_transcode_queue_idx on creator_uploads (finished_at)
    where transcode_status = 'queued' and transcode_job_id is null`.execute(db)
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop index if exists creator_uploads_transcode_queue_idx`.execute(db)
  await sql`drop index if exists creator_uploads_storage_key_idx`.execute(db)
  await db.schema
    .alterTable('creator_uploads')
    .dropColumn('transcode_status')
    .dropColumn('transcode_percent')
    .dropColumn('transcode_job_id')
    .dropColumn('hls_prefix')
    .dropColumn('hls_heights')
    .dropColumn('transcoded_at')
    .execute()
}
