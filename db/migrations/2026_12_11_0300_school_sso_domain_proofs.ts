// Frozen: each e-mail domain a school's single sign-on allows gets its own DNS proof (decision 0062, 2026-12-11):
// a random token the owner publishes as a TXT record at _skillforge-sso.<domain>. An existing account is linked only
// when its address's exact domain is proven here; a verified custom domain under it no longer counts. The domains
// listed today get a token; one equal to the school's verified custom domain (the same zone, proven by a TXT record
// at _skillforge-verify.<domain>) keeps its proof. Never import app code.
import { randomBytes } from 'node:crypto'
import { type Kysely, sql } from 'kysely'

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('school_sso_domain_proofs')
    .addColumn('school_id', 'uuid', (c) => c.notNull().references('schools.id').onDelete('cascade'))
    .addColumn('domain', 'text', (c) => c.notNull())
    .addColumn('token', 'text', (c) => c.notNull())
    .addColumn('verified_at', 'timestamptz')
    .addColumn('checked_at', 'timestamptz')
    // The last check's answer: verified, missing (no TXT record), mismatch (records, none the token), failed (DNS).
    .addColumn('last_outcome', 'text')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint('school_sso_domain_proofs_pkey', ['school_id', 'domain'])
    .execute()

  const rows = await db
    .selectFrom('school_sso as sso')
    .leftJoin('school_domains as d', (join) =>
      join.onRef('d.school_id', '=', 'sso.school_id').on('d.verified_at', 'is not', null),
    )
    .select(['sso.school_id', 'sso.allowed_domains', 'd.hostname', 'd.verified_at'])
    .execute()
  for (const row of rows) {
    for (const domain of new Set((row.allowed_domains as string[]) ?? [])) {
      const carried = row.hostname === domain ? (row.verified_at as Date) : null
      await db
        .insertInto('school_sso_domain_proofs')
        .values({
          school_id: row.school_id,
          domain,
          token: `sf-${randomBytes(18).toString('base64url')}`,
          verified_at: carried,
          checked_at: carried,
          last_outcome: carried ? 'verified' : null,
        })
        .onConflict((oc) => oc.columns(['school_id', 'domain']).doNothing())
        .execute()
    }
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('school_sso_domain_proofs').execute()
}
