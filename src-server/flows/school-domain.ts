// A school's own domain and white-label brand (issue 36, decision 0063): the studio's /studio/domain page (owner
// only; the plan must include 'customDomain' / 'whiteLabel'), the host routing's lookup of a verified hostname, and
// the brand a school's pages, mails and certificates show instead of SkillForge's; the "Check now" and the periodic
// re-check ('domains.recheck') by which a verified domain whose record is gone lapses (flows/school-domain-lapse.ts).

import type { DnsCheckOutcome } from '../../db/types.ts'
import { planIncludes } from '../../src-shared/creator-plans.ts'
import { isStaff, type Role } from '../../src-shared/roles.ts'
import { isClaimableHostname } from '../../src-shared/schemas/domains.ts'
import type { SitePage } from '../../src-shared/school-site.ts'
import { endSiteSessions } from '../auth/session.ts'
import { dnsRechecker } from '../creators/dns-proofs.ts'
import { checkTxtToken, type TxtLookup } from '../creators/dns-verify.ts'
import {
  brandOfSchool,
  claimDomain,
  claimsOfHost,
  domainOfSchool,
  recordDomainCheck,
  removeBrand,
  removeDomain,
  type SchoolBrand,
  saveBrand,
  setBrandLogo,
} from '../creators/domains.ts'
import { schoolById, schoolBySlug, schoolOfCourse, schoolsOfCourses } from '../creators/schools.ts'
import * as clock from '../kernel/clock.ts'
import type { DB } from '../kernel/db.ts'
import { DomainError } from '../kernel/errors.ts'
import { hostnameOf, mainHostOf } from '../kernel/hosts.ts'
import { courseOfCertificate } from '../learning/repository.ts'
import { bundleOwnerBySlug } from '../promotions/bundles.ts'
import { currentSubscription } from '../subscriptions/premium.ts'
import { assertPlanIncludes, ownerPlanIncludes } from './creator-standing.ts'
import { domainView, onDomainLapse, verificationRecordName } from './school-domain-lapse.ts'
import { ownSchool } from './school-team.ts'

/** The owner's school, refused to anyone else (members included: only the owner manages the domain and brand). */
async function ownerSchool(db: DB, userId: string) {
  const school = await ownSchool(db, userId)
  if (school.ownerId !== userId) throw new DomainError('forbidden', 'Only the school’s owner manages its domain')
  return school
}

export async function domainPanel(db: DB, userId: string, now = clock.now()) {
  const school = await ownerSchool(db, userId)
  const [domain, brand, subscription] = await Promise.all([
    domainOfSchool(db, school.id),
    brandOfSchool(db, school.id),
    currentSubscription(db, userId, now),
  ])
  return {
    school: { name: school.name, slug: school.slug },
    customDomainAllowed: planIncludes(subscription?.held_plan_id, 'customDomain'),
    whiteLabelAllowed: planIncludes(subscription?.held_plan_id, 'whiteLabel'),
    domain: domain ? domainView(domain) : null,
    brand,
  }
}

/** Refuses the platform's own host and names under it (they are ours, not a school's). */
function assertNotPlatformHost(hostname: string, publicUrl: string) {
  const own = new URL(publicUrl).hostname.toLowerCase()
  if (hostname === own || hostname.endsWith(`.${own}`)) {
    throw new DomainError('invalid', 'Use a domain of your own, not one of this site’s', { field: 'hostname' })
  }
}

export async function addSchoolDomain(db: DB, userId: string, hostname: string, publicUrl: string) {
  const school = await ownerSchool(db, userId)
  await assertPlanIncludes(db, userId, 'customDomain')
  assertNotPlatformHost(hostname, publicUrl)
  await replaceSchoolHost(db, school.id, (trx) => claimDomain(trx, school.id, hostname))
  return { hostname }
}

/**
 * Changes or removes the school's hostname; the old name, which no longer serves the school, keeps no session made on
 * it (as when it lapses), and the host lookups are forgotten once the change commits, so it stops answering at once.
 */
async function replaceSchoolHost(db: DB, schoolId: string, change: (trx: DB) => Promise<void>) {
  const changed = await db.transaction().execute(async (trx) => {
    const before = await domainOfSchool(trx, schoolId)
    await change(trx)
    const after = await domainOfSchool(trx, schoolId)
    if (before?.hostname === after?.hostname) return false
    if (before) await endSiteSessions(trx, before.hostname)
    return true
  })
  // Also when a name is first claimed: a claimed name is redirected away only temporarily (decision 0143).
  if (changed) hostCaches.delete(db)
}

/**
 * Records a check's outcome (creators/domains.ts recordDomainCheck) and, when it lapsed the domain, ends the sessions
 * made on it and mails the owner, all in one transaction; then forgets the cached host lookups, so host routing and
 * Caddy's ask stop answering for it at once (on this node; elsewhere within the cache's 30 s).
 */
async function recordSchoolDomainCheck(
  db: DB,
  schoolId: string,
  domain: { hostname: string; token: string },
  outcome: DnsCheckOutcome,
  now: Date,
  publicUrl: string,
) {
  const effect = await db.transaction().execute(async (trx) => {
    const effect = await recordDomainCheck(trx, schoolId, outcome, now)
    if (effect === 'lapsed') await onDomainLapse(trx, schoolId, domain, publicUrl)
    return effect
  })
  if (effect !== 'recorded') hostCaches.delete(db)
  return effect
}

/**
 * "Check now": looks the TXT record up and records the outcome by the re-check's rule — a verified domain stays so
 * until its record has been definitely gone for the grace, then lapses; a DNS failure decides nothing.
 */
export async function checkSchoolDomain(db: DB, userId: string, lookup: TxtLookup, publicUrl: string) {
  const school = await ownerSchool(db, userId)
  await assertPlanIncludes(db, userId, 'customDomain')
  const domain = await domainOfSchool(db, school.id)
  if (!domain) throw new DomainError('not_found', 'Add a domain first')
  const check = await checkTxtToken(lookup, verificationRecordName(domain.hostname), domain.token)
  await recordSchoolDomainCheck(db, school.id, domain, check.outcome, clock.now(), publicUrl)
  const view = domainView((await domainOfSchool(db, school.id)) ?? domain)
  return { verified: view.verifiedAt !== null, status: view.status, message: view.message }
}

/**
 * The periodic re-check ('domains.recheck'): every verified custom domain not checked in the last 5 hours is looked up
 * again (creators/dns-proofs.ts dnsRechecker, as the SSO e-mail domains' proofs). A record definitely missing or wrong
 * for longer than the grace lapses the domain (flows/school-domain-lapse.ts); a DNS failure lapses nothing.
 */
export const recheckSchoolDomains = dnsRechecker({
  table: 'school_domains',
  recordName: verificationRecordName,
  record: (db, due, outcome, now, publicUrl) =>
    recordSchoolDomainCheck(db, due.schoolId, { hostname: due.name, token: due.token }, outcome, now, publicUrl),
})

export async function removeSchoolDomain(db: DB, userId: string) {
  const school = await ownerSchool(db, userId)
  await replaceSchoolHost(db, school.id, (trx) => removeDomain(trx, school.id))
}

/** Clears the brand (the school's pages, mails and certificates say SkillForge again); returns the logo's URL to remove. */
export async function removeSchoolBrand(db: DB, userId: string): Promise<string | null> {
  const school = await ownerSchool(db, userId)
  // No plan check: taking the brand off is always the owner's to do, as removing the domain is.
  return removeBrand(db, school.id)
}

export async function saveSchoolBrand(db: DB, userId: string, input: { displayName: string; brandColor: string }) {
  const school = await ownerSchool(db, userId)
  await assertPlanIncludes(db, userId, 'whiteLabel')
  await saveBrand(db, school.id, input)
}

/** Sets the brand's logo (an image already checked and stored by the route); returns the old logo's URL. */
export async function setSchoolBrandLogo(db: DB, userId: string, logoUrl: string) {
  const school = await ownerSchool(db, userId)
  await assertPlanIncludes(db, userId, 'whiteLabel')
  return setBrandLogo(db, school.id, logoUrl)
}

/** The brand a school shows: its saved brand while the owner's plan includes white label, else null (SkillForge's). */
export async function liveBrand(
  db: DB,
  school: { schoolId: string; ownerId: string },
  now = clock.now(),
): Promise<SchoolBrand | null> {
  const brand = await brandOfSchool(db, school.schoolId)
  if (!brand) return null
  return (await ownerPlanIncludes(db, school.ownerId, 'whiteLabel', now)) ? brand : null
}

/** The brand of a course's school (its mails and certificates), or null. */
export async function brandOfCourse(db: DB, courseId: string): Promise<SchoolBrand | null> {
  const school = await schoolOfCourse(db, courseId)
  return school ? liveBrand(db, { schoolId: school.id, ownerId: school.ownerId }) : null
}

/**
 * The brand of an order whose every line is a course of one white-label school (its receipt and gift mails), else
 * null: an order with a plan, a service or several schools' courses is SkillForge's.
 */
export async function brandOfOrderLines(
  db: DB,
  lines: readonly { kind: string; course_id: string | null }[],
): Promise<SchoolBrand | null> {
  if (lines.length === 0 || lines.some((line) => line.kind !== 'course' || !line.course_id)) return null
  const courseIds = [...new Set(lines.map((line) => line.course_id as string))]
  const schools = await schoolsOfCourses(db, courseIds)
  const only = schools.get(courseIds[0] as string)
  if (!only || courseIds.some((id) => schools.get(id)?.id !== only.id)) return null
  return liveBrand(db, { schoolId: only.id, ownerId: only.ownerId })
}

export interface HostSchool {
  schoolId: string
  slug: string
  ownerId: string
}

/**
 * What a host name is to the schools: the school it serves (verified, on a plan with a domain), and whether a school
 * claims it at all — a name typed in and not yet proved, lapsed, or whose owner's plan lapsed, which may serve the
 * school again: the canonical-host redirect sends it away only temporarily (decision 0143).
 */
export interface HostStanding {
  school: HostSchool | null
  claimed: boolean
}

const NOT_A_SCHOOLS: HostStanding = { school: null, claimed: false }

// Verified hosts (and misses) for a short while: host routing asks on every request under a foreign Host.
const HOST_CACHE_MS = 30_000
const HOST_CACHE_MAX = 1000
// Per database, as catalogue-snapshot.ts keeps its snapshot: a host is a school's in one database only.
const hostCaches = new WeakMap<DB, Map<string, HostStanding & { until: number }>>()

/** The school a host name serves and whether a school claims it (port and case ignored). Cached 30 s. */
export async function schoolHostStanding(db: DB, host: string): Promise<HostStanding> {
  const hostname = hostnameOf(host)
  // Addresses, localhost and the like are never a school's: no lookup.
  if (!isClaimableHostname(hostname)) return NOT_A_SCHOOLS
  let hostCache = hostCaches.get(db)
  if (!hostCache) {
    hostCache = new Map()
    hostCaches.set(db, hostCache)
  }
  const hit = hostCache.get(hostname)
  const nowMs = Date.now()
  if (hit && hit.until > nowMs) return hit
  const { verified, claimed } = await claimsOfHost(db, hostname)
  // A domain is a plan's promise (Pro and up): once the owner's plan no longer includes it, as the studio then says,
  // the site stops answering under it (Caddy's ask included) until the plan does again.
  const school = verified && (await ownerPlanIncludes(db, verified.ownerId, 'customDomain')) ? verified : null
  if (hostCache.size >= HOST_CACHE_MAX) hostCache.clear()
  const standing = { school, claimed, until: nowMs + HOST_CACHE_MS }
  hostCache.set(hostname, standing)
  return standing
}

/** The school whose verified domain the hostname is (port and case ignored) on a plan with one, or null. Cached 30 s. */
export async function schoolForHost(db: DB, host: string): Promise<HostSchool | null> {
  return (await schoolHostStanding(db, host)).school
}

/**
 * The origin a request's links and return URLs use (mails it sends, Stripe's success and cancel pages, a gift's claim
 * link): the school's verified domain when the request came on it, with PUBLIC_URL's scheme and port, else
 * PUBLIC_URL. Only a verified hostname is ever used, so a forged Host cannot put its own name in a mailed link.
 */
export async function siteUrlForHost(db: DB, publicUrl: string, host: string | undefined): Promise<string> {
  const hostname = hostnameOf(host)
  if (!hostname || hostname === mainHostOf(publicUrl)) return publicUrl
  const school = await schoolForHost(db, hostname)
  return school ? originOn(publicUrl, hostname) : publicUrl
}

/**
 * PUBLIC_URL when the request's Host can never be a school's domain (the main host, an address, localhost): what
 * siteUrlForHost answers for it, without a lookup or a promise; undefined when it has to ask. Remembered per Host
 * header (every tRPC request's context asks: issue 37).
 */
export function platformSiteUrl(publicUrl: string, host: string | undefined): string | undefined {
  let known = platformHosts.get(publicUrl)
  if (!known) {
    known = new Map()
    if (platformHosts.size < 16) platformHosts.set(publicUrl, known)
  }
  const key = host ?? ''
  let platform = known.get(key)
  if (platform === undefined) {
    const hostname = hostnameOf(key)
    platform = !hostname || hostname === mainHostOf(publicUrl) || !isClaimableHostname(hostname)
    if (known.size >= 256) known.clear()
    known.set(key, platform)
  }
  return platform ? publicUrl : undefined
}
const platformHosts = new Map<string, Map<string, boolean>>()

/** The hostname with PUBLIC_URL's scheme and port (what a school's domain is served with behind the same proxy). */
function originOn(publicUrl: string, hostname: string): string {
  const main = new URL(publicUrl)
  return `${main.protocol}//${hostname}${main.port ? `:${main.port}` : ''}`
}

/**
 * The origin a school's links use when no request names a host (mails the job queue sends later): the school's
 * verified domain, with PUBLIC_URL's scheme and port, while the owner's plan includes it, else PUBLIC_URL. The same
 * hostnames host routing serves (schoolForHost), so a link never names a domain the school has not proved, nor one
 * that no longer serves it (nor gets a certificate: Caddy's ask) since the plan lapsed.
 */
export async function siteUrlForSchool(db: DB, publicUrl: string, schoolId: string): Promise<string> {
  const school = await schoolById(db, schoolId)
  return school ? siteUrlOf(db, publicUrl, school) : publicUrl
}

async function siteUrlOf(db: DB, publicUrl: string, school: { id: string; ownerId: string }): Promise<string> {
  const domain = await domainOfSchool(db, school.id)
  if (!domain?.verifiedAt || !(await ownerPlanIncludes(db, school.ownerId, 'customDomain'))) return publicUrl
  return originOn(publicUrl, domain.hostname)
}

/** The origin of a course's links (its school's verified domain, else PUBLIC_URL); null: not a course's, PUBLIC_URL. */
export async function siteUrlForCourse(db: DB, publicUrl: string, courseId: string | null): Promise<string> {
  const school = courseId ? await schoolOfCourse(db, courseId) : null
  return school ? siteUrlOf(db, publicUrl, school) : publicUrl
}

/**
 * siteUrlForCourse remembered for one run of a job (a sweep mails many learners of the same courses): each course's
 * school and domain is looked up once per run, and a domain verified or removed meanwhile is seen by the next run.
 */
export function courseSiteUrls(db: DB, publicUrl: string): (courseId: string | null) => Promise<string> {
  const known = new Map<string, Promise<string>>()
  return (courseId) => {
    if (!courseId) return Promise.resolve(publicUrl)
    let origin = known.get(courseId)
    if (!origin) {
      origin = siteUrlForCourse(db, publicUrl, courseId)
      known.set(courseId, origin)
    }
    return origin
  }
}

/**
 * The school a request's Host serves, or null (the platform's own hosts answer at once, with no lookup): the site
 * whose pages, header and links are that school's (decision 0143).
 */
export async function hostSchool(db: DB, publicUrl: string, host: string | undefined): Promise<HostSchool | null> {
  if (platformSiteUrl(publicUrl, host) !== undefined) return null
  return schoolForHost(db, host ?? '')
}

/**
 * The brand the header and footer show: under a school's own domain always that school's (every page there is the
 * school's site: decision 0143), else on /s/{slug} the slug's school.
 */
export async function pageBrand(db: DB, publicUrl: string, input: { slug?: string; host?: string }) {
  let school: { schoolId: string; ownerId: string; slug: string } | null = await hostSchool(db, publicUrl, input.host)
  if (!school && input.slug) {
    const bySlug = await schoolBySlug(db, input.slug)
    school = bySlug ? { schoolId: bySlug.id, ownerId: bySlug.ownerId, slug: bySlug.slug } : null
  }
  if (!school) return null
  const brand = await liveBrand(db, school)
  return brand ? { ...brand, slug: school.slug } : null
}

/**
 * The school's site a request came to (decision 0143), or null on the platform's own hosts: its home (slug), the name
 * it goes by (its brand's while white label is live), the brand, and the marketplace's origin, where the pages that
 * are not the school's are sent.
 */
export async function schoolSite(db: DB, publicUrl: string, host: string | undefined) {
  const school = await hostSchool(db, publicUrl, host)
  if (!school) return null
  const [row, brand] = await Promise.all([schoolById(db, school.schoolId), liveBrand(db, school)])
  return {
    slug: school.slug,
    name: brand?.displayName ?? row?.name ?? school.slug,
    brand,
    marketplaceUrl: new URL(publicUrl).origin,
  }
}

/**
 * Whether a course or bundle page, or a certificate (by the course it was earned in), is this school's (its owner's),
 * so its domain serves it (decisions 0143, 0150); any other (another creator's or school's, the platform's own, an
 * unknown one) is the marketplace's page.
 */
export async function schoolSiteServes(
  db: DB,
  school: { schoolId: string; ownerId: string },
  page: SitePage,
): Promise<boolean> {
  if ('bundleSlug' in page) return (await bundleOwnerBySlug(db, page.bundleSlug)) === school.ownerId
  const courseId = 'courseId' in page ? page.courseId : await courseOfCertificate(db, page.certificateId)
  return courseId !== null && (await schoolOfCourse(db, courseId))?.id === school.schoolId
}

/**
 * Whether the site the request came to serves a course's page or player, a bundle's page or a certificate: on the
 * platform's hosts everything, on a school's domain what the server's first hook serves there (the same rule, for the
 * browser's router).
 */
export async function siteServes(
  db: DB,
  publicUrl: string,
  host: string | undefined,
  page: SitePage,
): Promise<boolean> {
  const school = await hostSchool(db, publicUrl, host)
  return school ? schoolSiteServes(db, school, page) : true
}

export const HANDOFF_MESSAGES = {
  notASchool: 'This address is not a school’s site: there is nothing to sign in to.',
  staff: 'Staff accounts are not signed in on a school’s domain.',
} as const

/**
 * The school a learner's sign-in is handed to (http/sign-in-handoff.ts, decision 0063): its verified hostname and the
 * name its learners know it by (its brand's while white label is live). Staff are not handed: they sign in on the
 * platform's host only.
 */
export async function handoffTarget(db: DB, user: { role: Role }, host: string) {
  if (isStaff(user.role)) throw new DomainError('forbidden', HANDOFF_MESSAGES.staff)
  const school = await schoolForHost(db, host)
  if (!school) throw new DomainError('not_found', HANDOFF_MESSAGES.notASchool)
  const brand = await liveBrand(db, school)
  const name = brand?.displayName ?? (await schoolById(db, school.schoolId))?.name ?? school.slug
  return { site: hostnameOf(host), name }
}
