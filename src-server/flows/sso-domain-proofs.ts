// The DNS proof of each e-mail domain a school's single sign-on allows (decisions 0062, 0091): the owner's list on
// /studio/sso (the TXT record to publish at _skillforge-sso.<domain>, its status and why) and its "Check" — the custom
// domain's lookup (creators/dns-verify.ts), one domain at a time. Linking an existing account asks
// creators/sso-domain-proofs.ts schoolProvesEmailDomain for the exact domain (flows/school-sso.ts).
import { ssoDomainProofRecordName } from '../../src-shared/schemas/sso.ts'
import { checkTxtToken, type TxtLookup } from '../creators/dns-verify.ts'
import {
  recordSsoDomainCheck,
  type SsoDomainProof,
  ssoDomainProof,
  ssoDomainProofs,
} from '../creators/sso-domain-proofs.ts'
import type { DB } from '../kernel/db.ts'
import { DomainError } from '../kernel/errors.ts'
import { assertPlanIncludes } from './creator-standing.ts'
import { ownSchool } from './school-team.ts'

export type SsoDomainStatus = 'verified' | 'unchecked' | 'missing' | 'mismatch' | 'failed'

/** One allowed domain's proof as the SSO page shows it: the record to publish, its status and why. */
function proofView(proof: SsoDomainProof) {
  const recordName = ssoDomainProofRecordName(proof.domain)
  const status: SsoDomainStatus = proof.verifiedAt ? 'verified' : (proof.lastOutcome ?? 'unchecked')
  const messages: Record<SsoDomainStatus, string> = {
    verified: `Verified: existing accounts at ${proof.domain} can be linked to your sign-in.`,
    unchecked: 'Not verified yet: publish the TXT record, then check.',
    missing: `Not verified yet: no TXT record was found at ${recordName}. DNS changes can take a while to show.`,
    mismatch: `Not verified yet: ${recordName} has TXT records, but none holds this value.`,
    failed: `Check failed: the DNS lookup for ${recordName} did not complete (time-out or server failure). Try again in a few minutes.`,
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

/**
 * "Check" on one allowed domain: looks its TXT record up now and records the outcome (verified once a record is the
 * token; a verified domain stays so). A missing record, a wrong value or a DNS failure is an answer, never an error.
 */
export async function checkSsoDomain(db: DB, userId: string, domain: string, lookup: TxtLookup) {
  const school = await ownSchool(db, userId)
  await assertPlanIncludes(db, school.ownerId, 'sso')
  const proof = await ssoDomainProof(db, school.id, domain)
  if (!proof) {
    throw new DomainError('not_found', `${domain} is not one of your allowed e-mail domains: add it and save first`, {
      field: 'domain',
    })
  }
  const check = await checkTxtToken(lookup, ssoDomainProofRecordName(proof.domain), proof.token)
  await recordSsoDomainCheck(db, school.id, proof.domain, check.outcome)
  return proofView((await ssoDomainProof(db, school.id, proof.domain)) ?? proof)
}
