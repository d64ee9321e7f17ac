// Studio → Payouts lists what Stripe still needs in a creator's words, each thing once (not Stripe's field names).
import { describe, expect, it } from 'vitest'
import { payoutRequirementLabels } from '../../src-shared/payout-requirements.ts'

describe('payoutRequirementLabels', () => {
  it('names each thing to give once, in Stripe’s order', () => {
    expect(
      payoutRequirementLabels([
        'business_profile.url',
        'external_account',
        'individual.dob.day',
        'individual.dob.month',
        'individual.dob.year',
        'tos_acceptance.date',
        'tos_acceptance.ip',
      ]),
    ).toEqual([
      'A website or profile page about your teaching',
      'A bank account to be paid into',
      'Date of birth',
      'Accepting Stripe’s terms of service',
    ])
  })

  it('reads a company’s people and keeps a field it does not know as words', () => {
    expect(
      payoutRequirementLabels(['person_1AbC.address.city', 'company.tax_id', 'individual.verification.document']),
    ).toEqual(['Home address', 'Company details', 'A photo of an identity document'])
    expect(payoutRequirementLabels(['settings.payouts.schedule'])).toEqual(['settings payouts schedule'])
  })
})
