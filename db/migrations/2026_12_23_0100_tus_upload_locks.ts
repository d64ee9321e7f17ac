// Frozen: who is writing each resumable (tus) upload right now (2026-12-23). @tus/server keeps that in the memory of
// the process by default, so with two web nodes a PATCH retried on node B while node A was still writing the same
// upload ran beside it: two writers on one upload. One row per upload being written, held by a lease the holder
// renews; another node asks it to let go by setting release_requested (decision 0113). Never import application code.
import { type Kysely, sql } from 'kysely'

export async function up(db: Kysely<any>): Promise<void> {
  await sql`create table tus_upload_locks (
    upload_id text primary key,
    holder text not null,
    expires_at timestamptz not null,
    release_requested boolean not null default false
  )`.execute(db)
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop table if exists tus_upload_locks`.execute(db)
}
