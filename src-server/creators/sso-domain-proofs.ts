// The DNS proof of each e-mail domain a school's single sign-on allows (decision 0062): creators/ is the only writer of
// school_sso_domain_proofs. Each listed domain has its own token, published as a TXT record at _skillforge-sso.<domain>;
// an existing account is linked only when its address's exact domain is verified here (no parent-domain inheritance:
// whoever runs a delegated sub-zone such as learn.acme.com proves nothing about acme.com's mailboxes). A domain is
// proven by one school at a time (a unique index on verified rows); a verified proof whose record is definitely gone
// or wrong for longer than the grace lapses (decision 0091); a DNS failure changes nothing.
import { sql } from 'kysely'
import type { SsoDomainCheckOutcome } from '../../db/types.ts'
import * as clock from '../kernel/clock.ts'
import type { DB } from '../kernel/db.ts'
import { DomainError } from '../kernel/errors.ts'
import { newVerificationToken } from './dns-verify.ts'

export interface SsoDomainProof {
  domain: string
  token: string
  verifiedAt: Date | null
  checkedAt: Date | null
  lastOutcome: SsoDomainCheckOutcome | null
  /** A verified proof whose record has been definitely missing or wrong since then (it lapses after the grace). */
  failingSince: Date | null
  /** When the proof lapsed (its record stayed gone past the grace); the reason is lastOutcome's. */
  lapsedAt: Date | null
}

/**
 * How long a verified proof's record may be definitely missing or wrong before the proof lapses: the first failed
 * check starts it, a failed check at least this long after lapses it (so at least two checks, a day apart), a
 * passing check ends it. The periodic re-check runs every 6 hours (jobs/registry.ts 'sso.domain-recheck').
 */
export const SSO_PROOF_LAPSE_GRACE_MS = 24 * 60 * 60 * 1000

const COLUMNS = ['domain', 'token', 'verified_at', 'checked_at', 'last_outcome', 'failing_since', 'lapsed_at'] as const

function toProof(row: {
  domain: string
  token: string
  verified_at: Date | null
  checked_at: Date | null
  last_outcome: SsoDomainCheckOutcome | null
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

/** What recording a check did to the proof. */
export type SsoDomainCheckEffect = 'verified' | 'lapsed' | 'recorded'

/**
 * Records a check's outcome. `verified` verifies (the first verification's time is kept) and ends any failing run or
 * lapse; it is refused when another school has proven the domain (the unique index on verified rows decides a race).
 * `missing` or `mismatch` on a verified proof starts its failing run, and lapses it once the run is older than the
 * grace. `failed` (the lookup did not complete) only records the check.
 */
export async function recordSsoDomainCheck(
  db: DB,
  schoolId: string,
  domain: string,
  outcome: SsoDomainCheckOutcome,
  now: Date = clock.now(),
): Promise<SsoDomainCheckEffect> {
  const proof = db
    .updateTable('school_sso_domain_proofs')
    .where('school_id', '=', schoolId)
    .where('domain', '=', domain)
  if (outcome === 'verified') {
    try {
      await proof
        .set({
          checked_at: now,
          last_outcome: outcome,
          verified_at: sql<Date>`coalesce(verified_at, ${now})`,
          failing_since: null,
          lapsed_at: null,
        })
        .execute()
    } catch (error) {
      if (String((error as { code?: string }).code) === '23505') {
        throw new DomainError('conflict', SSO_DOMAIN_PROVEN_ELSEWHERE(domain), { field: 'domain' })
      }
      throw error
    }
    return 'verified'
  }
  if (outcome === 'failed') {
    await proof.set({ checked_at: now, last_outcome: outcome }).execute()
    return 'recorded'
  }
  // Every SET expression reads the row as it was: one statement decides and applies the lapse.
  const cutoff = new Date(now.getTime() - SSO_PROOF_LAPSE_GRACE_MS)
  const lapses = sql<boolean>`(verified_at is not null and failing_since is not null and failing_since <= ${cutoff})`
  const row = await proof
    .set({
      checked_at: now,
      last_outcome: outcome,
      failing_since: sql<Date | null>`case when verified_at is null or ${lapses} then null
        else coalesce(failing_since, ${now}) end`,
      lapsed_at: sql<Date | null>`case when ${lapses} then ${now} else lapsed_at end`,
      verified_at: sql<Date | null>`case when ${lapses} then null else verified_at end`,
    })
    .returning('lapsed_at')
    .executeTakeFirst()
  return row?.lapsed_at?.getTime() === now.getTime() ? 'lapsed' : 'recorded'
}

/** A verified proof due for its periodic re-check. */
export interface DueSsoDomainProof {
  schoolId: string
  domain: string
  token: string
}

/** Verified proofs last checked before `checkedBefore` (or never), least recently checked first. */
export async function verifiedSsoDomainProofsDue(
  db: DB,
  checkedBefore: Date,
  limit: number,
): Promise<DueSsoDomainProof[]> {
  const rows = await db
    .selectFrom('school_sso_domain_proofs')
    .select(['school_id', 'domain', 'token'])
    .where('verified_at', 'is not', null)
    .where((eb) => eb.or([eb('checked_at', 'is', null), eb('checked_at', '<', checkedBefore)]))
    .orderBy(sql`checked_at asc nulls first`)
    .limit(limit)
    .execute()
  return rows.map((row) => ({ schoolId: row.school_id, domain: row.domain, token: row.token }))
}
