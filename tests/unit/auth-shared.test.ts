import { describe, expect, it } from 'vitest'
import { safeReturnPath } from '../../src-shared/auth.ts'
import { hasRole, isStaff, ROLES, STAFF_ROLES } from '../../src-shared/roles.ts'
import { inviteInput } from '../../src-shared/schemas/admin.ts'
import { profileNameInput, signupInput } from '../../src-shared/schemas/auth.ts'

describe('safeReturnPath', () => {
  it('keeps paths on this site', () => {
    expect(safeReturnPath('/payment')).toBe('/payment')
    expect(safeReturnPath('/courses?category=business')).toBe('/courses?category=business')
  })
  it('turns anything that could leave the site into /', () => {
    for (const value of ['//evil.example', 'https://evil.example', '/\\evil.example', 'payment', '', undefined, 42]) {
      expect(safeReturnPath(value)).toBe('/')
    }
  })
  it('refuses control characters and backslashes, raw or percent-encoded (once or more)', () => {
    const hostile = [
      '/%09/evil.example/x', // a URL parser drops the tab: "//evil.example/x"
      '/\t/evil.example/x',
      '/%0a/evil.example',
      '/%0D%0A/evil.example',
      '/\n/evil.example',
      '/%00/evil.example',
      '/%7f/evil.example',
      '/%1F/x',
      '/%5C%5Cevil.example',
      '/%5cevil.example',
      '/%2F/evil.example', // decodes to "//evil.example"
      '/%2f%2fevil.example',
      '/%2509/evil.example', // encoded twice
      '/%252F/evil.example',
      '/%25252509/evil.example',
      '/ok?next=%09&bad=%zz', // a malformed escape does not hide a good one
      '/payment?x=\u0085%0b',
    ]
    for (const value of hostile) expect(safeReturnPath(value), value).toBe('/')
  })
  it('keeps ordinary encoded paths and queries', () => {
    for (const value of [
      '/courses?search=a%20b',
      '/courses?search=100%25',
      '/caf%C3%A9',
      '/courses?search=%zz',
      '/services/uk-company-formation#faq',
    ]) {
      expect(safeReturnPath(value)).toBe(value)
    }
    expect(safeReturnPath('/x'.repeat(257))).toBe('/')
  })
})

describe('signupInput', () => {
  it('checks only the length of the password (spec §5), with the spec messages', () => {
    const base = { firstName: 'A', lastName: 'B', email: 'a@example.test', acceptTerms: true }
    expect(signupInput.safeParse({ ...base, password: 'abcdefgh' }).success).toBe(true)
    const short = signupInput.safeParse({ ...base, password: 'abcdefg' })
    expect(short.error?.issues.map((i) => i.message)).toEqual(['Password must be at least 8 characters'])
    const terms = signupInput.safeParse({ ...base, password: 'abcdefgh', acceptTerms: false })
    expect(terms.error?.issues.map((i) => i.message)).toEqual(['You must agree to the terms and conditions'])
  })
})

describe("people's names (sign-up, profile, invitations)", () => {
  const firstNameErrors = (firstName: string) =>
    profileNameInput.safeParse({ firstName, lastName: 'Smith' }).error?.issues.map((issue) => issue.message) ?? []

  it('accepts letters of any script, spaces, apostrophes, hyphens and periods', () => {
    for (const name of [
      "O'Brien",
      'O’Neil',
      'Jean-Luc',
      'J. R. R.',
      'Zoë',
      'Đặng Thị',
      '李小龍',
      'محمد',
      'देवनागरी',
      'Ōta',
    ]) {
      expect(firstNameErrors(name), name).toEqual([])
    }
    expect(profileNameInput.parse({ firstName: '  Ada ', lastName: 'Lovelace' }).firstName).toBe('Ada')
  })

  it('refuses links, digits, markup and control characters with a clear message', () => {
    const message = 'First name may only contain letters, spaces, apostrophes, hyphens and periods'
    for (const name of [
      'http://spam.example',
      'Win $1000 now',
      'Click <a href=x>here</a>',
      'Ann\nBcc: victim@example.test',
      'Tab\there',
      'NUL\u0000',
      'R2D2',
      '-Ann',
      "'quoted'",
      'spam@example.test',
    ]) {
      expect(firstNameErrors(name), name).toEqual([message])
    }
  })

  it('keeps the spec\'s "required" wording and bounds the length', () => {
    expect(firstNameErrors('  ')).toEqual(['First name is required'])
    expect(firstNameErrors('A'.repeat(50))).toEqual([])
    expect(firstNameErrors('A'.repeat(51))).toEqual(['First name must be at most 50 characters'])
    const signup = signupInput.safeParse({
      firstName: 'Ada',
      lastName: 'www://x',
      email: 'a@example.test',
      password: 'abcdefgh',
      acceptTerms: true,
    })
    expect(signup.error?.issues.map((issue) => [issue.path[0], issue.message])).toEqual([
      ['lastName', 'Last name may only contain letters, spaces, apostrophes, hyphens and periods'],
    ])
    const invite = inviteInput.safeParse({ name: 'Visit https://spam.example', email: 'a@example.test' })
    expect(invite.error?.issues.map((issue) => issue.message)).toEqual([
      'Name may only contain letters, spaces, apostrophes, hyphens and periods',
    ])
    expect(inviteInput.safeParse({ name: 'Eve Editor', email: 'eve@example.test' }).success).toBe(true)
  })
})

describe('roles', () => {
  it('counts every role from viewer up as staff, and a customer as not', () => {
    expect(ROLES.map((role) => [role, isStaff(role)])).toEqual([
      ['customer', false],
      ['viewer', true],
      ['editor', true],
      ['admin', true],
      ['super_admin', true],
    ])
  })

  it('ranks customer < viewer < editor < admin < super_admin, for every pair of roles', () => {
    expect(ROLES).toEqual(['customer', 'viewer', 'editor', 'admin', 'super_admin'])
    // Row: the role someone has; column: the role asked for (customer, viewer, editor, admin, super_admin).
    expect(ROLES.map((role) => ROLES.map((minRole) => hasRole(role, minRole)))).toEqual([
      [true, false, false, false, false],
      [true, true, false, false, false],
      [true, true, true, false, false],
      [true, true, true, true, false],
      [true, true, true, true, true],
    ])
  })

  it('lists the staff roles, lowest first, without customer (the team and its count in the dashboard)', () => {
    expect(STAFF_ROLES).toEqual(['viewer', 'editor', 'admin', 'super_admin'])
  })
})
