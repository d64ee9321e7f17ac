// The intake form ("brief") of each seeded service, by service id: what the buyer fills in after paying.
// The zod schema of each is built from this data (src-shared/schemas/service-brief.ts) on both sides.
import type { IntakeForm, PersonField } from '../../../src-shared/schemas/service-brief.ts'

const ADDRESS_MAX = 300

const ukPerson: PersonField[] = [
  { kind: 'text', name: 'fullName', label: 'Full name', required: true, maxLength: 120 },
  { kind: 'date', name: 'dateOfBirth', label: 'Date of birth', required: true, past: true },
  { kind: 'text', name: 'nationality', label: 'Nationality', required: true, maxLength: 60 },
  { kind: 'textarea', name: 'address', label: 'Residential address', required: true, maxLength: ADDRESS_MAX },
  { kind: 'number', name: 'sharePercent', label: 'Share %', required: true, min: 0, max: 100 },
  {
    kind: 'text',
    name: 'personalCode',
    label: 'Companies House personal code',
    required: true,
    hint: 'The 11-character code Companies House gives after identity verification',
    maxLength: 11,
    pattern: { regex: '^[A-Za-z0-9]{11}$', message: 'A personal code is 11 letters and digits' },
  },
  { kind: 'yesno', name: 'isDirector', label: 'Director' },
  { kind: 'yesno', name: 'isPsc', label: 'Person with significant control' },
]

const usaOwner: PersonField[] = [
  { kind: 'text', name: 'fullName', label: 'Full name', required: true, maxLength: 120 },
  { kind: 'textarea', name: 'address', label: 'Address', required: true, maxLength: ADDRESS_MAX },
  { kind: 'number', name: 'ownershipPercent', label: 'Ownership %', required: true, min: 0, max: 100 },
]

const seoFields: IntakeForm['fields'] = [
  { kind: 'url', name: 'websiteUrl', label: 'Website URL', required: true },
  {
    kind: 'list',
    name: 'targetMarkets',
    label: 'Target markets',
    required: true,
    hint: 'One a line, e.g. United Kingdom',
    maxItems: 20,
  },
  { kind: 'list', name: 'competitors', label: 'Competitors', hint: 'Their websites, one a line', maxItems: 20 },
  {
    kind: 'select',
    name: 'analyticsAccess',
    label: 'Access to analytics',
    required: true,
    options: ['I will grant access to Google Analytics and Search Console', 'I will send exports', 'No analytics yet'],
  },
]

export const intakeForms: Record<string, IntakeForm> = {
  'uk-company-formation': {
    intro: 'The details Companies House needs to register your company.',
    fields: [
      { kind: 'text', name: 'proposedName', label: 'Proposed company name', required: true, maxLength: 160 },
      { kind: 'text', name: 'alternativeName', label: 'Alternative name', maxLength: 160 },
      {
        kind: 'select',
        name: 'companyType',
        label: 'Company type',
        required: true,
        options: ['Private limited by shares', 'Private limited by guarantee', 'Limited liability partnership'],
      },
      {
        kind: 'textarea',
        name: 'registeredOffice',
        label: 'Registered office address',
        required: true,
        maxLength: ADDRESS_MAX,
      },
      {
        kind: 'list',
        name: 'sicCodes',
        label: 'SIC code(s)',
        required: true,
        hint: 'Five digits each, one a line (up to four)',
        maxItems: 4,
        item: { regex: '^\\d{5}$', message: 'A SIC code is five digits' },
      },
      {
        kind: 'people',
        name: 'people',
        label: 'Directors and persons with significant control',
        itemLabel: 'Person',
        required: true,
        minItems: 1,
        maxItems: 10,
        fields: ukPerson,
        oneMust: { field: 'isDirector', message: 'At least one person must be a director' },
      },
      { kind: 'number', name: 'shareCapital', label: 'Share capital (£)', required: true, min: 0.01, max: 10000000 },
    ],
  },
  'usa-company-formation': {
    intro: 'The details the state filing and the IRS need.',
    fields: [
      {
        kind: 'select',
        name: 'state',
        label: 'State',
        required: true,
        hint: 'The state of the package you bought',
        options: ['Wyoming', 'Delaware', 'Texas'],
      },
      { kind: 'select', name: 'entityType', label: 'Entity type', required: true, options: ['LLC', 'Corporation'] },
      { kind: 'text', name: 'companyName', label: 'Company name', required: true, maxLength: 160 },
      {
        kind: 'people',
        name: 'owners',
        label: 'Members / owners',
        itemLabel: 'Owner',
        required: true,
        minItems: 1,
        maxItems: 10,
        fields: usaOwner,
      },
      {
        kind: 'select',
        name: 'registeredAgent',
        label: 'Registered agent',
        required: true,
        options: ['Use your registered agent service', 'I have my own registered agent'],
      },
      { kind: 'yesno', name: 'einWanted', label: 'Apply for an EIN for me', required: true },
    ],
  },
  'company-consultancy': {
    intro: 'So your consultant comes prepared.',
    fields: [
      {
        kind: 'select',
        name: 'businessStage',
        label: 'Business stage',
        required: true,
        options: ['Idea', 'Pre-launch', 'Trading under a year', 'Established', 'Scaling'],
      },
      { kind: 'textarea', name: 'goals', label: 'Goals', required: true, maxLength: 3000 },
      {
        kind: 'textarea',
        name: 'preferredTimes',
        label: 'Preferred times for the session',
        required: true,
        hint: 'Days and times, with your time zone',
        maxLength: 500,
      },
    ],
  },
  'seo-audit': { intro: 'What we audit and who you compete with.', fields: seoFields },
  'seo-management': { intro: 'Where we start your monthly SEO work.', fields: seoFields },
}
