// The rule every TXT proof a school holds follows once verified (decisions 0063, 0091): a custom domain
// (school_domains, creators/domains.ts) and each SSO e-mail domain (school_sso_domain_proofs, creators/
// sso-domain-proofs.ts) share the columns (db/types.ts DnsProofColumns), this grace, the periodic re-check's batches and
// what a check's outcome does. A *definite* failure (no TXT record, or records none of which is the token) starts a
// failing run; one at least the grace after the run started lapses the proof; a passing check ends the run; a DNS
// failure (time-out, SERVFAIL, refused) is recorded and decides nothing.
import { type RawBuilder, sql } from 'kysely'
import type { DnsCheckOutcome } from '../../db/types.ts'
import * as clock from '../kernel/clock.ts'
import type { DB } from '../kernel/db.ts'
import type { DomainError } from '../kernel/errors.ts'
import { isUniqueViolation } from '../kernel/pg-errors.ts'
import { checkTxtToken, createTxtLookup, type TxtLookup } from './dns-verify.ts'

/**
 * How long a verified proof's record may be definitely missing or wrong before the proof lapses: the first failed
 * check starts it, a failed check at least this long after lapses it (so at least two checks, a day apart), a passing
 * check ends it. The re-checks run every 6 hours (jobs/registry.ts 'sso.domain-recheck', 'domains.recheck').
 */
export const DNS_PROOF_LAPSE_GRACE_MS = 24 * 60 * 60 * 1000

/** How often each verified proof is looked up again (the jobs run every 6 hours; a little less, so no run skips it). */
const DNS_RECHECK_EVERY_MS = 5 * 60 * 60 * 1000
/** At most this many proofs per run, this many lookups at a time. */
const DNS_RECHECK_BATCH = 500
const RECHECK_CONCURRENCY = 4

/** What recording a check did to the proof. */
export type DnsProofCheckEffect = 'verified' | 'lapsed' | 'recorded'

/** The columns a check sets: every expression reads the row as it was, so one statement decides and applies a lapse. */
function checkSet(outcome: DnsCheckOutcome, now: Date) {
  const keep = (column: string) => sql<Date | null>`${sql.ref(column)}`
  if (outcome === 'verified') {
    const cleared = sql<Date | null>`null`
    return {
      checked_at: now,
      last_outcome: outcome,
      verified_at: sql<Date | null>`coalesce(verified_at, ${now})`,
      failing_since: cleared,
      lapsed_at: cleared,
    }
  }
  if (outcome === 'failed') {
    return {
      checked_at: now,
      last_outcome: outcome,
      verified_at: keep('verified_at'),
      failing_since: keep('failing_since'),
      lapsed_at: keep('lapsed_at'),
    }
  }
  const cutoff = new Date(now.getTime() - DNS_PROOF_LAPSE_GRACE_MS)
  const lapses = sql<boolean>`(verified_at is not null and failing_since is not null and failing_since <= ${cutoff})`
  return {
    checked_at: now,
    last_outcome: outcome,
    failing_since: sql<Date | null>`case when verified_at is null or ${lapses} then null
      else coalesce(failing_since, ${now}) end`,
    lapsed_at: sql<Date | null>`case when ${lapses} then ${now} else lapsed_at end`,
    verified_at: sql<Date | null>`case when ${lapses} then null else verified_at end`,
  }
}

type DnsProofCheckSet = {
  checked_at: Date
  last_outcome: DnsCheckOutcome
  verified_at: RawBuilder<Date | null>
  failing_since: RawBuilder<Date | null>
  lapsed_at: RawBuilder<Date | null>
}

/** One proof: a school's custom domain (one per school), or one of its SSO e-mail domains. */
export type DnsProofKey =
  | { table: 'school_domains'; schoolId: string }
  | { table: 'school_sso_domain_proofs'; schoolId: string; domain: string }

/**
 * Records a check's outcome on one proof. `verified` verifies (the first verification's time is kept) and ends any
 * failing run or lapse; a verified proof being unique per name, another holder's (the unique index's 23505) is refused
 * with `provenElsewhere`. `missing` or `mismatch` on a verified proof starts its failing run, and lapses it once the
 * run is older than the grace. `failed` only records the check.
 */
export async function recordDnsProofCheck(
  db: DB,
  key: DnsProofKey,
  outcome: DnsCheckOutcome,
  now: Date,
  provenElsewhere: () => DomainError,
): Promise<DnsProofCheckEffect> {
  const set: DnsProofCheckSet = checkSet(outcome, now)
  const update =
    key.table === 'school_domains'
      ? db.updateTable('school_domains').set(set).where('school_id', '=', key.schoolId).returning('lapsed_at')
      : db
          .updateTable('school_sso_domain_proofs')
          .set(set)
          .where('school_id', '=', key.schoolId)
          .where('domain', '=', key.domain)
          .returning('lapsed_at')
  try {
    const row = await update.executeTakeFirst()
    if (outcome === 'verified') return 'verified'
    return row?.lapsed_at?.getTime() === now.getTime() ? 'lapsed' : 'recorded'
  } catch (error) {
    if (isUniqueViolation(error)) throw provenElsewhere()
    throw error
  }
}

/** A verified proof due for its periodic re-check: its school, its name (hostname or e-mail domain) and token. */
export interface DueDnsProof {
  schoolId: string
  name: string
  token: string
}

const NAME_AND_TOKEN = {
  school_domains: sql`hostname as name, verification_token as token`,
  school_sso_domain_proofs: sql`domain as name, token`,
}

/** Verified proofs last checked before `checkedBefore` (or never), least recently checked first. */
async function verifiedProofsDue(
  db: DB,
  table: DnsProofKey['table'],
  checkedBefore: Date,
  limit: number,
): Promise<DueDnsProof[]> {
  const { rows } = await sql<DueDnsProof>`
    select school_id as "schoolId", ${NAME_AND_TOKEN[table]} from ${sql.table(table)}
     where verified_at is not null and (checked_at is null or checked_at < ${checkedBefore})
     order by checked_at asc nulls first
     limit ${limit}`.execute(db)
  return rows
}

export type DnsProofStatus = 'verified' | 'failing' | 'lapsed' | 'unchecked' | 'missing' | 'mismatch' | 'failed'

/** A proof's state as its owner's page shows it, and what its last definite failure found, in words. */
function dnsProofState(proof: DnsProofRow, recordName: string) {
  const status: DnsProofStatus = proof.verifiedAt
    ? proof.failingSince
      ? 'failing'
      : 'verified'
    : proof.lapsedAt
      ? 'lapsed'
      : (proof.lastOutcome ?? 'unchecked')
  const found = proof.lastOutcome === 'mismatch' ? FOUND.mismatch(recordName) : FOUND.missing(recordName)
  return {
    status,
    found,
    /** Why a lapsed proof lapsed (a later failed lookup knows nothing of the record). */
    lapsedBecause:
      proof.lastOutcome === 'failed'
        ? 'the record stayed missing or wrong for more than a day'
        : `${found} for more than a day`,
    /** After a check past this time the failing proof lapses. */
    lapsesAfter: proof.failingSince ? minute(new Date(proof.failingSince.getTime() + DNS_PROOF_LAPSE_GRACE_MS)) : '',
  }
}

/** What the page says of a proof not verified (yet), by its last check: the same for every kind of proof. */
const notVerifiedMessages = (recordName: string) => ({
  missing: `Not verified yet: ${FOUND.missing(recordName)}. DNS changes can take a while to show.`,
  mismatch: `Not verified yet: ${FOUND.mismatch(recordName)}.`,
  failed: `Check failed: the DNS lookup for ${recordName} did not complete (time-out or server failure). Try again in a few minutes.`,
})

/** A proof's row as the pages read it. */
export interface DnsProofRow {
  token: string
  verifiedAt: Date | null
  checkedAt: Date | null
  lastOutcome: DnsCheckOutcome | null
  failingSince: Date | null
  lapsedAt: Date | null
}

/**
 * A proof as its owner's page shows it: the record to publish, its status and the server's words for it — `say` writes
 * those of a verified, failing, lapsed and unchecked proof (what each kind of proof grants differs), the rest are
 * shared.
 */
export function dnsProofView(
  proof: DnsProofRow,
  recordName: string,
  say: (state: ReturnType<typeof dnsProofState>) => Record<'verified' | 'failing' | 'lapsed' | 'unchecked', string>,
  /** What not being verified withholds, said after each shared not-verified message. */
  notVerifiedNote?: string,
) {
  const state = dnsProofState(proof, recordName)
  const shared = Object.entries(notVerifiedMessages(recordName)).map(([status, text]) => [
    status,
    notVerifiedNote ? `${text} ${notVerifiedNote}` : text,
  ])
  const messages: Record<DnsProofStatus, string> = { ...say(state), ...Object.fromEntries(shared) }
  return {
    recordName,
    recordValue: proof.token,
    status: state.status,
    message: messages[state.status],
    verifiedAt: proof.verifiedAt,
    checkedAt: proof.checkedAt,
    lapsedAt: proof.lapsedAt,
  }
}

/** What a definite failure found, in words. */
const FOUND = {
  missing: (recordName: string) => `no TXT record was found at ${recordName}`,
  mismatch: (recordName: string) => `${recordName} has TXT records, but none holds this value`,
}

/** A day as the pages write it (UTC). */
export const day = (date: Date | null) => (date ? date.toISOString().slice(0, 10) : '')
const minute = (date: Date) => `${date.toISOString().replace('T', ' ').slice(0, 16)} UTC`

/** One run's counts: how many were looked up, and how each ended. */
export type DnsRecheckCounts = { checked: number; verified: number; failing: number; lapsed: number; failed: number }

/** One kind of proof's periodic re-check: its table, its record's name, and recording one proof's outcome. */
export interface DnsProofKind {
  table: DnsProofKey['table']
  recordName: (name: string) => string
  /** Records the outcome, and does in the same transaction whatever a lapse does besides. */
  record: (
    db: DB,
    proof: DueDnsProof,
    outcome: DnsCheckOutcome,
    now: Date,
    publicUrl: string,
  ) => Promise<DnsProofCheckEffect>
}

/**
 * The periodic re-check of one kind of proof: every verified proof not checked in the last 5 hours (up to 500, least
 * recently checked first) is looked up again, a few at a time, on `lookup` (absent: the system's resolver), and the
 * outcome recorded.
 */
export function dnsRechecker(kind: DnsProofKind) {
  return async (
    db: DB,
    lookup: TxtLookup | undefined,
    publicUrl: string,
    now: Date = clock.now(),
  ): Promise<DnsRecheckCounts> => {
    const due = await verifiedProofsDue(
      db,
      kind.table,
      new Date(now.getTime() - DNS_RECHECK_EVERY_MS),
      DNS_RECHECK_BATCH,
    )
    const lookUp = lookup ?? createTxtLookup()
    const counts = { checked: 0, verified: 0, failing: 0, lapsed: 0, failed: 0 }
    let next = 0
    async function worker() {
      while (next < due.length) {
        const proof = due[next++]!
        const check = await checkTxtToken(lookUp, kind.recordName(proof.name), proof.token)
        const effect = await kind.record(db, proof, check.outcome, now, publicUrl)
        counts.checked++
        if (effect === 'lapsed') counts.lapsed++
        else if (check.outcome === 'verified') counts.verified++
        else if (check.outcome === 'failed') counts.failed++
        else counts.failing++
      }
    }
    await Promise.all(Array.from({ length: Math.min(RECHECK_CONCURRENCY, due.length) }, worker))
    return counts
  }
}
