// The DNS proof of each e-mail domain a school's single sign-on allows (decisions 0062, 0091): the owner's list on
// /studio/sso (the TXT record to publish at _skillforge-sso.<domain>, its status and why) and its "Check" — the custom
// domain's lookup (creators/dns-verify.ts), one domain at a time — and the periodic re-check of verified proofs
// ('sso.domain-recheck'): a record definitely gone or wrong for longer than the grace lapses the proof, and the owner
// is mailed. Linking an existing account and making a new one ask creators/sso-domain-proofs.ts
// schoolProvesEmailDomain for the exact domain (flows/school-sso.ts).
import { ssoDomainProofRecordName } from '../../src-shared/schemas/sso.ts'
import { checkTxtToken, createTxtLookup, type TxtLookup } from '../creators/dns-verify.ts'
import { schoolById } from '../creators/schools.ts'
import {
  domainProvenElsewhere,
  recordSsoDomainCheck,
  SSO_DOMAIN_PROVEN_ELSEWHERE,
  SSO_PROOF_LAPSE_GRACE_MS,
  type SsoDomainProof,
  ssoDomainProof,
  ssoDomainProofs,
  verifiedSsoDomainProofsDue,
} from '../creators/sso-domain-proofs.ts'
import * as clock from '../kernel/clock.ts'
import type { DB } from '../kernel/db.ts'
import { DomainError } from '../kernel/errors.ts'
import { enqueueMail } from '../mail/outbox.ts'
import { assertPlanIncludes } from './creator-standing.ts'
import { ownSchool } from './school-team.ts'

export type SsoDomainStatus = 'verified' | 'failing' | 'lapsed' | 'unchecked' | 'missing' | 'mismatch' | 'failed'

const day = (date: Date) => date.toISOString().slice(0, 10)

/** What a definite failure found, in words. */
const FOUND = {
  missing: (recordName: string) => `no TXT record was found at ${recordName}`,
  mismatch: (recordName: string) => `${recordName} has TXT records, but none holds this value`,
}

/** One allowed domain's proof as the SSO page shows it: the record to publish, its status and why. */
function proofView(proof: SsoDomainProof) {
  const recordName = ssoDomainProofRecordName(proof.domain)
  const status: SsoDomainStatus = proof.verifiedAt
    ? proof.failingSince
      ? 'failing'
      : 'verified'
    : proof.lapsedAt
      ? 'lapsed'
      : (proof.lastOutcome ?? 'unchecked')
  const found = proof.lastOutcome === 'mismatch' ? FOUND.mismatch(recordName) : FOUND.missing(recordName)
  const lapsesAfter = proof.failingSince ? new Date(proof.failingSince.getTime() + SSO_PROOF_LAPSE_GRACE_MS) : null
  // A new account is made through the school's sign-in only in a proven domain (flows/school-sso.ts).
  const noNewLearners = `Until it is verified, new learners at ${proof.domain} cannot join through your sign-in.`
  const messages: Record<SsoDomainStatus, string> = {
    verified: `Verified: new learners at ${proof.domain} can join through your sign-in, and existing accounts at ${proof.domain} can be linked to it.`,
    failing: `Verified, but at risk: since ${proof.failingSince ? day(proof.failingSince) : ''} ${found}. Publish the record again: if it is still not there at a check after ${lapsesAfter?.toISOString().replace('T', ' ').slice(0, 16)} UTC, the domain stops being verified.`,
    lapsed: `No longer verified since ${proof.lapsedAt ? day(proof.lapsedAt) : ''}: ${proof.lastOutcome === 'failed' ? 'the record stayed missing or wrong for more than a day' : found}. New learners at ${proof.domain} cannot join through your sign-in (those who signed in through it before still can), existing accounts at ${proof.domain} are no longer linked to it and “Require SSO” no longer applies to them. Publish the record, then check.`,
    unchecked: `Not verified yet: publish the TXT record, then check. ${noNewLearners}`,
    missing: `Not verified yet: ${FOUND.missing(recordName)}. DNS changes can take a while to show. ${noNewLearners}`,
    mismatch: `Not verified yet: ${FOUND.mismatch(recordName)}. ${noNewLearners}`,
    failed: `Check failed: the DNS lookup for ${recordName} did not complete (time-out or server failure). Try again in a few minutes. ${noNewLearners}`,
  }
  return {
    domain: proof.domain,
    recordName,
    recordValue: proof.token,
    status,
    message: messages[status],
    verifiedAt: proof.verifiedAt,
    checkedAt: proof.checkedAt,
  }
}

/** The DNS proof of each allowed e-mail domain (the owner's own school). */
export async function ssoDomainProofList(db: DB, userId: string) {
  const school = await ownSchool(db, userId)
  return (await ssoDomainProofs(db, school.id)).map(proofView)
}

export const SSO_PROOF_LAPSED_MAIL_KIND = 'sso-domain-lapsed'

/** Tells the school's owner that a domain's proof lapsed, in the transaction that lapsed it. */
async function mailLapse(db: DB, schoolId: string, proof: { domain: string; token: string }, publicUrl: string) {
  const school = await schoolById(db, schoolId)
  if (!school) return
  const owner = await db.selectFrom('users').select('email').where('id', '=', school.ownerId).executeTakeFirst()
  if (!owner) return
  const recordName = ssoDomainProofRecordName(proof.domain)
  await enqueueMail(db, {
    kind: SSO_PROOF_LAPSED_MAIL_KIND,
    to: owner.email,
    subject: `${proof.domain} is no longer verified for ${school.name}’s single sign-on`,
    text: [
      `The TXT record that proves ${school.name} controls ${proof.domain} has been missing or wrong for more than a day,`,
      `so ${proof.domain} is no longer verified for your single sign-on.`,
      '',
      `Until it is verified again, new learners at ${proof.domain} cannot join through your sign-in (those who signed`,
      `in through it before still can), existing accounts at ${proof.domain} are not linked to it without their`,
      `owner’s consent, and “Require SSO” no longer holds your members with ${proof.domain} addresses to it.`,
      '',
      'To verify it again, publish this TXT record and press Check:',
      `  name:  ${recordName}`,
      `  value: ${proof.token}`,
      `${publicUrl}/studio/sso`,
      '',
    ].join('\n'),
  })
}

/** Records a check's outcome, and mails the owner in the same transaction when it lapsed the proof. */
async function recordCheck(
  db: DB,
  schoolId: string,
  proof: { domain: string; token: string },
  outcome: Parameters<typeof recordSsoDomainCheck>[3],
  now: Date,
  publicUrl: string,
) {
  return db.transaction().execute(async (trx) => {
    const effect = await recordSsoDomainCheck(trx, schoolId, proof.domain, outcome, now)
    if (effect === 'lapsed') await mailLapse(trx, schoolId, proof, publicUrl)
    return effect
  })
}

/**
 * "Check" on one allowed domain: looks its TXT record up now and records the outcome (see recordSsoDomainCheck: a
 * verified domain stays so until its record has been definitely gone for the grace). A missing record, a wrong value
 * or a DNS failure is an answer, never an error; a domain another school has proven is refused.
 */
export async function checkSsoDomain(db: DB, userId: string, domain: string, lookup: TxtLookup, publicUrl: string) {
  const school = await ownSchool(db, userId)
  await assertPlanIncludes(db, school.ownerId, 'sso')
  const proof = await ssoDomainProof(db, school.id, domain)
  if (!proof) {
    throw new DomainError('not_found', `${domain} is not one of your allowed e-mail domains: add it and save first`, {
      field: 'domain',
    })
  }
  if (!proof.verifiedAt && (await domainProvenElsewhere(db, school.id, [proof.domain]))) {
    throw new DomainError('conflict', SSO_DOMAIN_PROVEN_ELSEWHERE(proof.domain), { field: 'domain' })
  }
  const check = await checkTxtToken(lookup, ssoDomainProofRecordName(proof.domain), proof.token)
  await recordCheck(db, school.id, proof, check.outcome, clock.now(), publicUrl)
  return proofView((await ssoDomainProof(db, school.id, proof.domain)) ?? proof)
}

/** How often each verified proof is looked up again (the job runs every 6 hours; a little less, so no run skips it). */
export const SSO_RECHECK_EVERY_MS = 5 * 60 * 60 * 1000
const RECHECK_BATCH = 500
const RECHECK_CONCURRENCY = 4

/**
 * The periodic re-check ('sso.domain-recheck'): every verified proof not checked in the last 5 hours is looked up
 * again. A record definitely missing or wrong starts (or continues) its failing run and lapses the proof once the run
 * is older than the grace, mailing the owner; a DNS failure (time-out, SERVFAIL) is only recorded: it neither starts,
 * ends nor lapses anything.
 */
export async function recheckSsoDomainProofs(
  db: DB,
  lookup: TxtLookup | undefined,
  publicUrl: string,
  now: Date = clock.now(),
): Promise<{ checked: number; verified: number; failing: number; lapsed: number; failed: number }> {
  // No DNS_SERVERS lookup given: the system's resolver.
  const lookUp = lookup ?? createTxtLookup()
  const due = await verifiedSsoDomainProofsDue(db, new Date(now.getTime() - SSO_RECHECK_EVERY_MS), RECHECK_BATCH)
  const counts = { checked: 0, verified: 0, failing: 0, lapsed: 0, failed: 0 }
  let next = 0
  async function worker() {
    while (next < due.length) {
      const proof = due[next++]!
      const check = await checkTxtToken(lookUp, ssoDomainProofRecordName(proof.domain), proof.token)
      const effect = await recordCheck(db, proof.schoolId, proof, check.outcome, now, publicUrl)
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
