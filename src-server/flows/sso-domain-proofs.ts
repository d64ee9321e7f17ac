// The DNS proof of each e-mail domain a school's single sign-on allows (decisions 0062, 0091): the owner's list on
// /studio/sso (the TXT record to publish at _skillforge-sso.<domain>, its status and why) and its "Check" — the custom
// domain's lookup (creators/dns-verify.ts), one domain at a time — and the periodic re-check of verified proofs
// ('sso.domain-recheck'): a record definitely gone or wrong for longer than the grace lapses the proof, and the owner
// is mailed. Linking an existing account and making a new one ask creators/sso-domain-proofs.ts
// schoolProvesEmailDomain for the exact domain (flows/school-sso.ts).

import type { DnsCheckOutcome } from '../../db/types.ts'
import { ssoDomainProofRecordName } from '../../src-shared/schemas/sso.ts'
import { type DnsProofStatus, day, dnsProofView, dnsRechecker } from '../creators/dns-proofs.ts'
import { checkTxtToken, type TxtLookup } from '../creators/dns-verify.ts'
import { schoolSsoSettings } from '../creators/school-sso.ts'
import {
  domainProvenElsewhere,
  recordSsoDomainCheck,
  SSO_DOMAIN_PROVEN_ELSEWHERE,
  type SsoDomainProof,
  ssoDomainProof,
  ssoDomainProofs,
} from '../creators/sso-domain-proofs.ts'
import * as clock from '../kernel/clock.ts'
import type { DB } from '../kernel/db.ts'
import { DomainError } from '../kernel/errors.ts'
import { assertPlanIncludes } from './creator-standing.ts'
import { mailSchoolOwner } from './school-owner-mail.ts'
import { ownSchool } from './school-team.ts'
import { endSessionsHeldToSso } from './sso-hold.ts'

export type SsoDomainStatus = DnsProofStatus

/**
 * One allowed domain's proof as the SSO page shows it: the record to publish, its status and why. `offered`: whether
 * the school offers its sign-in now (unticked, a verified domain lets nobody join or sign in through it).
 */
function proofView(proof: SsoDomainProof, offered: boolean) {
  // A new account is made through the school's sign-in only in a proven domain (flows/school-sso.ts).
  const noNewLearners = `Until it is verified, new learners at ${proof.domain} cannot join through your sign-in.`
  const view = dnsProofView(
    proof,
    ssoDomainProofRecordName(proof.domain),
    (state) => ({
      verified: offered
        ? `Verified: new learners at ${proof.domain} can join through your sign-in, and existing accounts at ${proof.domain} can be linked to it.`
        : `Verified. Your sign-in is not offered now, so nobody at ${proof.domain} joins or signs in through it until you offer it again.`,
      failing: `Verified, but at risk: since ${day(proof.failingSince)} ${state.found}. Publish the record again: if it is still not there at a check after ${state.lapsesAfter}, the domain stops being verified.`,
      lapsed: `No longer verified since ${day(proof.lapsedAt)}: ${state.lapsedBecause}. New learners at ${proof.domain} cannot join through your sign-in (those who signed in through it before still can), existing accounts at ${proof.domain} are no longer linked to it and “Require SSO” no longer applies to them. Publish the record, then check.`,
      unchecked: `Not verified yet: publish the TXT record, then check. ${noNewLearners}`,
    }),
    noNewLearners,
  )
  return { domain: proof.domain, ...view }
}

/** The DNS proof of each allowed e-mail domain (the owner's own school). */
export async function ssoDomainProofList(db: DB, userId: string) {
  const school = await ownSchool(db, userId)
  const offered = await ssoOffered(db, school.id)
  return (await ssoDomainProofs(db, school.id)).map((proof) => proofView(proof, offered))
}

const ssoOffered = async (db: DB, schoolId: string) => (await schoolSsoSettings(db, schoolId))?.enabled === true

export const SSO_PROOF_LAPSED_MAIL_KIND = 'sso-domain-lapsed'

/** Tells the school's owner that a domain's proof lapsed, in the transaction that lapsed it. */
function mailLapse(db: DB, schoolId: string, proof: { domain: string; token: string }, publicUrl: string) {
  return mailSchoolOwner(db, schoolId, (school) => ({
    kind: SSO_PROOF_LAPSED_MAIL_KIND,
    subject: `${proof.domain} is no longer verified for ${school}’s single sign-on`,
    lines: [
      `The TXT record that proves ${school} controls ${proof.domain} has been missing or wrong for more than a day,`,
      `so ${proof.domain} is no longer verified for your single sign-on.`,
      '',
      `Until it is verified again, new learners at ${proof.domain} cannot join through your sign-in (those who signed`,
      `in through it before still can), existing accounts at ${proof.domain} are not linked to it without their`,
      `owner’s consent, and “Require SSO” no longer holds your members with ${proof.domain} addresses to it.`,
    ],
    record: {
      name: ssoDomainProofRecordName(proof.domain),
      value: proof.token,
      press: 'Check',
      page: `${publicUrl}/studio/sso`,
    },
  }))
}

/**
 * Records a check's outcome, and mails the owner in the same transaction when it lapsed the proof. A proof verified by
 * this check (`verifiedAt` null before) makes "Require SSO" hold the members at that domain from this commit on: their
 * sessions made another way end with it.
 */
async function recordCheck(
  db: DB,
  schoolId: string,
  proof: { domain: string; token: string; verifiedAt?: Date | null },
  outcome: DnsCheckOutcome,
  now: Date,
  publicUrl: string,
) {
  return db.transaction().execute(async (trx) => {
    const effect = await recordSsoDomainCheck(trx, schoolId, proof.domain, outcome, now)
    if (effect === 'lapsed') await mailLapse(trx, schoolId, proof, publicUrl)
    if (effect === 'verified' && proof.verifiedAt === null)
      await endSessionsHeldToSso(trx, schoolId, { domain: proof.domain })
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
  return proofView((await ssoDomainProof(db, school.id, proof.domain)) ?? proof, await ssoOffered(db, school.id))
}

/**
 * The periodic re-check ('sso.domain-recheck'): every verified proof not checked in the last 5 hours is looked up
 * again (creators/dns-proofs.ts dnsRechecker). A record definitely missing or wrong starts (or continues) its failing
 * run and lapses the proof once the run is older than the grace, mailing the owner; a DNS failure (time-out,
 * SERVFAIL) is only recorded: it neither starts, ends nor lapses anything.
 */
export const recheckSsoDomainProofs = dnsRechecker({
  table: 'school_sso_domain_proofs',
  recordName: ssoDomainProofRecordName,
  record: (db, proof, outcome, now, publicUrl) =>
    recordCheck(db, proof.schoolId, { domain: proof.name, token: proof.token }, outcome, now, publicUrl),
})
