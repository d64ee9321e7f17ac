// Frozen: a school's hostname is held only once proved (decision 0063) — an unverified claim no longer locks the
// domain's real owner out, so the hostname is unique among verified domains only. Never import app code.
import { type Kysely, sql } from 'kysely'

export async function up(db: Kysely<any>): Promise<void> {
  await sql`alter table school_domains drop constraint if exists school_domains_hostname_key`.execute(db)
  await sql`create unique index school_domains_verified_hostname on school_domains (hostname) where verified_at is not null`.execute(
    db,
  )
  await sql`create index school_domains_hostname on school_domains (hostname)`.execute(db)
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop index school_domains_hostname`.execute(db)
  await sql`drop index school_domains_verified_hostname`.execute(db)
  await sql`alter table school_domains add constraint school_domains_hostname_key unique (hostname)`.execute(db)
}
