// The brief schema built from an intake form (src-shared/schemas/service-brief.ts), as the browser and the server
// both use it: drafts take partial answers; submissions need every required field, valid, with per-field messages.
import { describe, expect, it } from 'vitest'
import { intakeForms } from '../../db/seed/data/intake-forms.ts'
import { briefErrors, briefSchema, GENERIC_INTAKE_FORM } from '../../src-shared/schemas/service-brief.ts'
import { ukBrief, ukDirector } from '../support/service-orders.ts'

const uk = intakeForms['uk-company-formation']!
const seo = intakeForms['seo-audit']!
const errorsOf = (form: typeof uk, brief: unknown) => {
  const result = briefSchema(form, 'submit').safeParse(brief)
  return result.success ? {} : briefErrors(result.error)
}

describe('brief schema', () => {
  it('accepts a complete UK brief and drops blank list lines', () => {
    const result = briefSchema(uk, 'submit').safeParse({ ...ukBrief, sicCodes: ['62012', '', '70229'] })
    expect(result.success).toBe(true)
    expect(result.data?.sicCodes).toEqual(['62012', '70229'])
  })

  it('names each wrong field by its path, with the form’s own messages', () => {
    const errors = errorsOf(uk, {
      ...ukBrief,
      proposedName: '  ',
      sicCodes: ['6201'],
      shareCapital: '0',
      people: [{ ...ukDirector, personalCode: 'AB12', dateOfBirth: '2999-01-01', sharePercent: '120' }],
    })
    expect(errors).toEqual({
      proposedName: 'This field is required',
      // Under the list, which the form shows as one field (decision 0167).
      sicCodes: 'A SIC code is five digits',
      shareCapital: 'Enter a number from 0.01 to 10000000',
      'people.0.personalCode': 'A personal code is 11 letters and digits',
      'people.0.dateOfBirth': 'Enter a valid date',
      'people.0.sharePercent': 'Enter a number from 0 to 100',
    })
  })

  it('needs at least one person, and a director among them', () => {
    expect(errorsOf(uk, { ...ukBrief, people: [] })).toEqual({ people: 'Add at least 1 person' })
    expect(errorsOf(uk, { ...ukBrief, people: [{ ...ukDirector, isDirector: false }] })).toEqual({
      people: 'At least one person must be a director',
    })
  })

  it('checks website addresses and choices', () => {
    const base = { targetMarkets: ['United Kingdom'], analyticsAccess: 'No analytics yet' }
    expect(errorsOf(seo, { ...base, websiteUrl: 'example' })).toEqual({
      websiteUrl: 'Enter a full website address, such as https://example.com',
    })
    expect(errorsOf(seo, { ...base, websiteUrl: 'javascript:alert(1)' })).toHaveProperty('websiteUrl')
    expect(errorsOf(seo, { ...base, websiteUrl: 'https://shop.example.com', analyticsAccess: 'Maybe' })).toEqual({
      analyticsAccess: 'Choose one of the options',
    })
    expect(errorsOf(seo, { ...base, websiteUrl: 'https://shop.example.com' })).toEqual({})
  })

  it('takes any partial draft of the right shape, and refuses the wrong shape or size', () => {
    const draft = briefSchema(uk, 'draft')
    expect(draft.safeParse({}).success).toBe(true)
    expect(draft.safeParse({ people: [{ personalCode: 'AB' }], sicCodes: ['1'] }).success).toBe(true)
    expect(draft.safeParse({ people: 'Ada' }).success).toBe(false)
    expect(draft.safeParse({ proposedName: 'x'.repeat(161) }).success).toBe(false)
    // Unknown answers are dropped, not stored.
    expect(draft.parse({ proposedName: 'A', injected: 'x' })).toEqual({ proposedName: 'A' })
  })

  it('has a generic form for services without their own', () => {
    expect(errorsOf(GENERIC_INTAKE_FORM, {})).toEqual({ details: 'This field is required' })
  })
})

describe('required answers', () => {
  it('are required when absent, not only when blank', () => {
    const errors = errorsOf(uk, {})
    expect(errors).toEqual({
      proposedName: 'This field is required',
      companyType: 'This field is required',
      registeredOffice: 'This field is required',
      sicCodes: 'This field is required',
      people: 'This field is required',
      shareCapital: 'This field is required',
    })
    const usa = intakeForms['usa-company-formation']!
    expect(Object.keys(errorsOf(usa, {})).sort()).toEqual(
      ['companyName', 'einWanted', 'entityType', 'owners', 'registeredAgent', 'state'].sort(),
    )
    // Optional ones may be left out.
    expect(errorsOf(uk, { ...ukBrief, alternativeName: undefined })).toEqual({})
  })
})
