// Frozen: an image in a lesson post knows the post that uses it (issue 33, decision 0052 "Later"): post_id and
// post_kind ('question' | 'answer') are set when the post is saved, so a hidden post's images are hidden with it and
// the upload sweep removes images no post took within a day. Never import application code here.
import { type Kysely, sql } from 'kysely'

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('lesson_post_images')
    .addColumn('post_id', 'uuid')
    .addColumn('post_kind', 'text', (c) => c.check(sql`post_kind in ('question', 'answer')`))
    .execute()
  await sql`alter table lesson_post_images add constraint lesson_post_images_post_both
    check ((post_id is null) = (post_kind is null))`.execute(db)
  await sql`create index lesson_post_images_unattached on lesson_post_images (created_at) where post_id is null`.execute(
    db,
  )
  await db.schema.createIndex('lesson_post_images_post').on('lesson_post_images').column('post_id').execute()
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop index lesson_post_images_post`.execute(db)
  await sql`drop index lesson_post_images_unattached`.execute(db)
  await sql`alter table lesson_post_images drop constraint lesson_post_images_post_both`.execute(db)
  await db.schema.alterTable('lesson_post_images').dropColumn('post_kind').dropColumn('post_id').execute()
}
