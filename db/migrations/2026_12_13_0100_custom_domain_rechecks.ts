// Frozen: a school's verified custom domain is re-checked and lapses when its TXT record is gone (decision 0063,
// 2026-12-13), by the rule of the SSO e-mail domains' proofs (decision 0091): the last check's outcome, the start of a
// run of definite failures (`failing_since`) and the time it lapsed (`lapsed_at`). A verified domain's last outcome is
// 'verified'. Never import app code.
import { type Kysely, sql } from 'kysely'

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('school_domains')
    // The last check's answer: verified, missing (no TXT record), mismatch (records, none the token), failed (DNS).
    .addColumn('last_outcome', 'text')
    // The first of the current run of definite failures (missing or mismatched record) of a verified domain.
    .addColumn('failing_since', 'timestamptz')
    // When the domain lapsed (the record stayed gone past the grace); cleared when it is verified again.
    .addColumn('lapsed_at', 'timestamptz')
    .execute()
  await sql`update school_domains set last_outcome = 'verified' where verified_at is not null`.execute(db)
  // The periodic re-check reads verified domains, least recently checked first.
  await sql`create index school_domains_recheck on school_domains (checked_at) where verified_at is not null`.execute(
    db,
  )
  // A lapse ends the sessions made on the domain.
  await sql`create index sessions_site_host on sessions (site_host) where site_host is not null`.execute(db)
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop index sessions_site_host`.execute(db)
  await sql`drop index school_domains_recheck`.execute(db)
  await db.schema
    .alterTable('school_domains')
    .dropColumn('lapsed_at')
    .dropColumn('failing_since')
    .dropColumn('last_outcome')
    .execute()
}
