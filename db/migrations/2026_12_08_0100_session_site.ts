// Frozen: a session belongs to the site it was made on (decision 0063): null for the platform's host, else the
// school domain's hostname, where alone it is accepted. Never import app code.
import { type Kysely, sql } from 'kysely'

export async function up(db: Kysely<any>): Promise<void> {
  await sql`alter table sessions add column site_host text`.execute(db)
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`alter table sessions drop column site_host`.execute(db)
}
