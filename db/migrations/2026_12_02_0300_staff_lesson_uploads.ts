// Frozen: lesson videos uploaded by staff are transcoded to HLS like creators' (issue 37, decision 0064). Their
// stored file gets a creator_uploads row too (the transcode pipeline's outbox), marked as staff's: it counts against
// no creator's plan, and it is released once no lesson uses it. Never import application code here.
import { type Kysely, sql } from 'kysely'

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('creator_uploads')
    .addColumn('staff_upload', 'boolean', (c) => c.notNull().defaultTo(false))
    .execute()
  // The sweep's look-up of staff uploads no lesson uses any more.
  await sql`create index creator_uploads_staff_idx on creator_uploads (created_at)
    where staff_upload and status = 'stored'`.execute(db)
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop index if exists creator_uploads_staff_idx`.execute(db)
  await db.schema.alterTable('creator_uploads').dropColumn('staff_upload').execute()
}
