// The DNS proof of each e-mail domain a school's single sign-on allows (decision 0062): creators/ is the only writer of
// school_sso_domain_proofs. Each listed domain has its own token, published as a TXT record at _skillforge-sso.<domain>;
// an existing account is linked only when its address's exact domain is verified here (no parent-domain inheritance:
// whoever runs a delegated sub-zone such as learn.acme.com proves nothing about acme.com's mailboxes).
import { sql } from 'kysely'
import type { SsoDomainCheckOutcome } from '../../db/types.ts'
import * as clock from '../kernel/clock.ts'
import type { DB } from '../kernel/db.ts'
import { newVerificationToken } from './dns-verify.ts'

export interface SsoDomainProof {
  domain: string
  token: string
  verifiedAt: Date | null
  checkedAt: Date | null
  lastOutcome: SsoDomainCheckOutcome | null
}

const COLUMNS = ['domain', 'token', 'verified_at', 'checked_at', 'last_outcome'] as const

function toProof(row: {
  domain: string
  token: string
  verified_at: Date | null
  checked_at: Date | null
  last_outcome: SsoDomainCheckOutcome | null
}): SsoDomainProof {
  return {
    domain: row.domain,
    token: row.token,
    verifiedAt: row.verified_at,
    checkedAt: row.checked_at,
    lastOutcome: row.last_outcome,
  }
}

/** The school's proofs, one per listed domain, by domain. */
export async function ssoDomainProofs(db: DB, schoolId: string): Promise<SsoDomainProof[]> {
  const rows = await db
    .selectFrom('school_sso_domain_proofs')
    .select(COLUMNS)
    .where('school_id', '=', schoolId)
    .orderBy('domain')
    .execute()
  return rows.map(toProof)
}

export async function ssoDomainProof(db: DB, schoolId: string, domain: string): Promise<SsoDomainProof | null> {
  const row = await db
    .selectFrom('school_sso_domain_proofs')
    .select(COLUMNS)
    .where('school_id', '=', schoolId)
    .where('domain', '=', domain)
    .executeTakeFirst()
  return row ? toProof(row) : null
}

/** Whether the school has proven by DNS that it controls exactly this e-mail domain (a name under it proves nothing). */
export async function schoolProvesEmailDomain(db: DB, schoolId: string, domain: string): Promise<boolean> {
  const proof = await ssoDomainProof(db, schoolId, domain.toLowerCase())
  return proof?.verifiedAt != null
}

/**
 * Keeps one proof per listed domain: a new domain gets a new token, a domain still listed keeps its token and its
 * verification, a domain no longer listed loses its proof (listed again later, it is proven again).
 */
export async function syncSsoDomainProofs(db: DB, schoolId: string, domains: readonly string[]): Promise<void> {
  const dropped = db.deleteFrom('school_sso_domain_proofs').where('school_id', '=', schoolId)
  await (domains.length > 0 ? dropped.where('domain', 'not in', [...domains]) : dropped).execute()
  for (const domain of new Set(domains)) {
    await db
      .insertInto('school_sso_domain_proofs')
      .values({ school_id: schoolId, domain, token: newVerificationToken() })
      .onConflict((oc) => oc.columns(['school_id', 'domain']).doNothing())
      .execute()
  }
}

/** Records a check's outcome; a verified domain stays verified (as a custom domain does, decision 0063). */
export async function recordSsoDomainCheck(
  db: DB,
  schoolId: string,
  domain: string,
  outcome: SsoDomainCheckOutcome,
): Promise<void> {
  const now = clock.now()
  await db
    .updateTable('school_sso_domain_proofs')
    .set({
      checked_at: now,
      last_outcome: outcome,
      // The first verification's time is kept.
      ...(outcome === 'verified' ? { verified_at: sql<Date>`coalesce(verified_at, ${now})` } : {}),
    })
    .where('school_id', '=', schoolId)
    .where('domain', '=', domain)
    .execute()
}
