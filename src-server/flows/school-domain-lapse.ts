// A school's custom domain once verified (decision 0063, 2026-12-13): its state as /studio/domain shows it (verified,
// at risk, lapsed, not yet, check failed, with the reason and how to restore it) and what its lapse does besides the
// row (creators/domains.ts recordDomainCheck), in the same transaction: the sessions made on the domain end and the
// owner is mailed. The host routing's cache is cleared by the caller once the transaction commits
// (flows/school-domain.ts).
import { DOMAIN_VERIFY_PREFIX } from '../../src-shared/schemas/domains.ts'
import { endSiteSessions } from '../auth/session.ts'
import { day, dnsProofView } from '../creators/dns-proofs.ts'
import type { SchoolDomain } from '../creators/domains.ts'
import type { DB } from '../kernel/db.ts'
import { mailSchoolOwner } from './school-owner-mail.ts'

export function verificationRecordName(hostname: string): string {
  return `${DOMAIN_VERIFY_PREFIX}.${hostname}`
}

/** The domain as the owner's page shows it: the record to publish, its status and why. */
export function domainView(domain: SchoolDomain) {
  const view = dnsProofView(domain, verificationRecordName(domain.hostname), (state) => ({
    verified: `Verified: ${domain.hostname} serves your school.`,
    failing: `Verified, but at risk: since ${day(domain.failingSince)} ${state.found}. Publish the record again: if it is still not there at a check after ${state.lapsesAfter}, ${domain.hostname} stops serving your school.`,
    lapsed: `No longer verified since ${day(domain.lapsedAt)}: ${state.lapsedBecause}. ${domain.hostname} no longer serves your school, and everyone signed in there was signed out. To restore it, publish the TXT record below, then press Check now.`,
    unchecked: 'Not verified yet: create the TXT record, then check.',
  }))
  return { hostname: domain.hostname, ...view }
}

export const DOMAIN_LAPSED_MAIL_KIND = 'custom-domain-lapsed'

/**
 * What a lapse does besides the row, in its transaction: the sessions made on the domain end (whoever points the name
 * now must find none there) and the owner is told, with the record to publish again.
 */
export async function onDomainLapse(
  trx: DB,
  schoolId: string,
  domain: { hostname: string; token: string },
  publicUrl: string,
): Promise<void> {
  await endSiteSessions(trx, domain.hostname)
  await mailSchoolOwner(trx, schoolId, (school) => ({
    kind: DOMAIN_LAPSED_MAIL_KIND,
    subject: `${domain.hostname} no longer serves ${school}`,
    lines: [
      `The TXT record that proves ${school} controls ${domain.hostname} has been missing or wrong for more than a day,`,
      `so ${domain.hostname} is no longer verified: it no longer serves your school's pages, no certificate is issued`,
      'for it, and everyone signed in on it was signed out. Your school stays at its address on this site.',
    ],
    record: {
      name: verificationRecordName(domain.hostname),
      value: domain.token,
      press: 'Check now',
      page: `${publicUrl}/studio/domain`,
    },
  }))
}
