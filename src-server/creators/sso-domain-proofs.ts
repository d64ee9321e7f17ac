// The DNS proof of each e-mail domain a school's single sign-on allows (decision 0062): creators/ is the only writer of
// school_sso_domain_proofs. Each listed domain has its own token, published as a TXT record at _skillforge-sso.<domain>;
// an existing account is linked only when its address's exact domain is verified here (no parent-domain inheritance:
// whoever runs a delegated sub-zone such as learn.acme.com proves nothing about acme.com's mailboxes). A domain is
// proven by one school at a time (a unique index on verified rows); a verified proof whose record is definitely gone
// or wrong for longer than the grace lapses (decision 0091, the rule in creators/dns-proofs.ts); a DNS failure changes
// nothing.
import type { DnsCheckOutcome } from '../../db/types.ts'
import * as clock from '../kernel/clock.ts'
import type { DB } from '../kernel/db.ts'
import { DomainError } from '../kernel/errors.ts'
import { type DnsProofRow, recordDnsProofCheck } from './dns-proofs.ts'
import { newVerificationToken } from './dns-verify.ts'

/** One allowed e-mail domain and its TXT proof (verified, at risk, lapsed: creators/dns-proofs.ts). */
export interface SsoDomainProof extends DnsProofRow {
  domain: string
}

const COLUMNS = ['domain', 'token', 'verified_at', 'checked_at', 'last_outcome', 'failing_since', 'lapsed_at'] as const

function toProof(row: {
  domain: string
  token: string
  verified_at: Date | null
  checked_at: Date | null
  last_outcome: DnsCheckOutcome | null
  failing_since: Date | null
  lapsed_at: Date | null
}): SsoDomainProof {
  return {
    domain: row.domain,
    token: row.token,
    verifiedAt: row.verified_at,
    checkedAt: row.checked_at,
    lastOutcome: row.last_outcome,
    failingSince: row.failing_since,
    lapsedAt: row.lapsed_at,
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

export const SSO_DOMAIN_PROVEN_ELSEWHERE = (domain: string) =>
  `Another school has proven ${domain} by DNS: its addresses sign in through that school. If ${domain} is yours, ` +
  'ask that school to remove it, or contact support.'

/** The first of the domains another school holds a verified proof of (a listing alone holds nothing), or null. */
export async function domainProvenElsewhere(
  db: DB,
  schoolId: string,
  domains: readonly string[],
): Promise<string | null> {
  if (domains.length === 0) return null
  const row = await db
    .selectFrom('school_sso_domain_proofs')
    .select('domain')
    .where(
      'domain',
      'in',
      domains.map((domain) => domain.toLowerCase()),
    )
    .where('verified_at', 'is not', null)
    .where('school_id', '!=', schoolId)
    .orderBy('domain')
    .executeTakeFirst()
  return row?.domain ?? null
}

/**
 * Records a check's outcome by the rule every TXT proof follows (creators/dns-proofs.ts recordDnsProofCheck): a
 * verified proof lapses once its record has been definitely gone or wrong for the grace; verifying is refused when
 * another school has proven the domain (the unique index on verified rows decides a race).
 */
export function recordSsoDomainCheck(
  db: DB,
  schoolId: string,
  domain: string,
  outcome: DnsCheckOutcome,
  now: Date = clock.now(),
) {
  const conflict = () => new DomainError('conflict', SSO_DOMAIN_PROVEN_ELSEWHERE(domain), { field: 'domain' })
  return recordDnsProofCheck(db, { table: 'school_sso_domain_proofs', schoolId, domain }, outcome, now, conflict)
}
