// Frozen: SSO e-mail domain proofs are re-checked and one school at a time proves a domain (decision 0091,
// 2026-12-12). A verified proof whose TXT record is definitely gone or wrong since `failing_since` lapses after a grace
// (`lapsed_at`, the reason kept in last_outcome); a DNS failure changes nothing. A domain is unique among verified
// proofs only (a listing alone holds nothing): where two schools hold a verified proof of one domain today, the
// earliest verified keeps it and the others go back to unverified (they may check again). Never import app code.
import { type Kysely, sql } from 'kysely'

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('school_sso_domain_proofs')
    // The first of the current run of definite failures (missing or mismatched record) of a verified proof.
    .addColumn('failing_since', 'timestamptz')
    // When the proof lapsed (the record stayed gone past the grace); cleared when it is verified again.
    .addColumn('lapsed_at', 'timestamptz')
    .execute()
  await sql`
    update school_sso_domain_proofs p
       set verified_at = null, checked_at = null, last_outcome = null
     where p.verified_at is not null
       and exists (
         select 1 from school_sso_domain_proofs q
          where q.domain = p.domain and q.school_id <> p.school_id and q.verified_at is not null
            and (q.verified_at, q.school_id) < (p.verified_at, p.school_id)
       )`.execute(db)
  await sql`create unique index school_sso_domain_proofs_verified_domain
              on school_sso_domain_proofs (domain) where verified_at is not null`.execute(db)
  // The periodic re-check reads verified proofs, least recently checked first.
  await sql`create index school_sso_domain_proofs_recheck
              on school_sso_domain_proofs (checked_at) where verified_at is not null`.execute(db)
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop index school_sso_domain_proofs_recheck`.execute(db)
  await sql`drop index school_sso_domain_proofs_verified_domain`.execute(db)
  await db.schema.alterTable('school_sso_domain_proofs').dropColumn('lapsed_at').dropColumn('failing_since').execute()
}
