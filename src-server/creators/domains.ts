// A school's own domain and white-label brand (decision 0063). creators/ is the only writer of school_domains and
// school_brands. One hostname per school; it serves the school's pages only once verified (a TXT record holding the
// token, checked through an injectable lookup: creators/dns-verify.ts) and while its record stays: re-checked, a
// verified domain whose record is definitely gone or wrong for the grace lapses (creators/dns-proofs.ts).
import type { DnsCheckOutcome } from '../../db/types.ts'
import * as clock from '../kernel/clock.ts'
import type { DB } from '../kernel/db.ts'
import { DomainError } from '../kernel/errors.ts'
import { type DnsProofRow, recordDnsProofCheck } from './dns-proofs.ts'
import { newVerificationToken } from './dns-verify.ts'

/** The school's hostname and its TXT proof (verified, at risk, lapsed: creators/dns-proofs.ts). */
export interface SchoolDomain extends DnsProofRow {
  hostname: string
}

export async function domainOfSchool(db: DB, schoolId: string): Promise<SchoolDomain | null> {
  const row = await db
    .selectFrom('school_domains')
    .select([
      'hostname',
      'verification_token',
      'verified_at',
      'checked_at',
      'last_outcome',
      'failing_since',
      'lapsed_at',
    ])
    .where('school_id', '=', schoolId)
    .executeTakeFirst()
  return row
    ? {
        hostname: row.hostname,
        token: row.verification_token,
        verifiedAt: row.verified_at,
        checkedAt: row.checked_at,
        lastOutcome: row.last_outcome,
        failingSince: row.failing_since,
        lapsedAt: row.lapsed_at,
      }
    : null
}

/**
 * Sets (or replaces) the school's hostname with a new token, unverified. A hostname another school has verified is
 * refused; one another school only typed in is not (its real owner proves it by the TXT record, the squatter cannot).
 */
export async function claimDomain(db: DB, schoolId: string, hostname: string): Promise<void> {
  const holders = await db
    .selectFrom('school_domains')
    .select(['school_id', 'verified_at'])
    .where('hostname', '=', hostname)
    .execute()
  if (holders.some((holder) => holder.school_id !== schoolId && holder.verified_at !== null)) {
    throw new DomainError('conflict', ANOTHER_SCHOOL, { field: 'hostname' })
  }
  if (holders.some((holder) => holder.school_id === schoolId)) return
  const token = newVerificationToken()
  await db
    .insertInto('school_domains')
    .values({ school_id: schoolId, hostname, verification_token: token })
    .onConflict((oc) =>
      oc.column('school_id').doUpdateSet({
        hostname,
        verification_token: token,
        verified_at: null,
        checked_at: null,
        last_outcome: null,
        failing_since: null,
        lapsed_at: null,
      }),
    )
    .execute()
}

const ANOTHER_SCHOOL = 'Another school uses this domain'

/**
 * Records a check's outcome by the rule every TXT proof follows (creators/dns-proofs.ts): verifies (refused when
 * another school verified the hostname first: verified hostnames are unique), or starts a failing run, or lapses a
 * domain whose record has been definitely gone or wrong for the grace; a DNS failure only records the check.
 */
export function recordDomainCheck(db: DB, schoolId: string, outcome: DnsCheckOutcome, now: Date = clock.now()) {
  const conflict = () => new DomainError('conflict', ANOTHER_SCHOOL, { field: 'hostname' })
  return recordDnsProofCheck(db, { table: 'school_domains', schoolId }, outcome, now, conflict)
}

export async function removeDomain(db: DB, schoolId: string): Promise<void> {
  await db.deleteFrom('school_domains').where('school_id', '=', schoolId).execute()
}

/**
 * The school a verified hostname belongs to (with its slug and owner), or null; and whether any school claims the
 * name at all (verified or not, lapsed included): such a name may serve a school again once proved (decision 0143).
 */
export async function claimsOfHost(
  db: DB,
  hostname: string,
): Promise<{ verified: { schoolId: string; slug: string; ownerId: string } | null; claimed: boolean }> {
  const rows = await db
    .selectFrom('school_domains as d')
    .innerJoin('schools as s', 's.id', 'd.school_id')
    .select(['s.id', 's.slug', 's.owner_id', 'd.verified_at'])
    .where('d.hostname', '=', hostname)
    .execute()
  // Verified names are unique (migration 2026_12_07_0000): at most one row has verified_at.
  const row = rows.find((claim) => claim.verified_at !== null)
  return {
    verified: row ? { schoolId: row.id, slug: row.slug, ownerId: row.owner_id } : null,
    claimed: rows.length > 0,
  }
}

export interface SchoolBrand {
  displayName: string
  brandColor: string
  logoUrl: string | null
}

export async function brandOfSchool(db: DB, schoolId: string): Promise<SchoolBrand | null> {
  const row = await db
    .selectFrom('school_brands')
    .select(['display_name', 'brand_color', 'logo_url'])
    .where('school_id', '=', schoolId)
    .executeTakeFirst()
  return row ? { displayName: row.display_name, brandColor: row.brand_color, logoUrl: row.logo_url } : null
}

export async function saveBrand(
  db: DB,
  schoolId: string,
  values: { displayName: string; brandColor: string },
): Promise<void> {
  await db
    .insertInto('school_brands')
    .values({ school_id: schoolId, display_name: values.displayName, brand_color: values.brandColor })
    .onConflict((oc) =>
      oc
        .column('school_id')
        .doUpdateSet({ display_name: values.displayName, brand_color: values.brandColor, updated_at: clock.now() }),
    )
    .execute()
}

/** Removes the school's brand (name, colour and logo); returns the logo's URL (the caller removes its file). */
export async function removeBrand(db: DB, schoolId: string): Promise<string | null> {
  const removed = await db
    .deleteFrom('school_brands')
    .where('school_id', '=', schoolId)
    .returning('logo_url')
    .executeTakeFirst()
  return removed?.logo_url ?? null
}

/** Sets the logo of a saved brand; returns the previous logo's URL (the caller removes its file). */
export async function setBrandLogo(db: DB, schoolId: string, logoUrl: string): Promise<string | null> {
  const before = await db
    .selectFrom('school_brands')
    .select('logo_url')
    .where('school_id', '=', schoolId)
    .executeTakeFirst()
  if (!before) throw new DomainError('precondition', 'Save the brand’s name and colour first')
  await db
    .updateTable('school_brands')
    .set({ logo_url: logoUrl, updated_at: clock.now() })
    .where('school_id', '=', schoolId)
    .execute()
  return before.logo_url
}
