import { describe, expect, it } from 'vitest'
import { safeReturnPath } from '../../src-shared/auth.ts'
import { signupInput } from '../../src-shared/schemas/auth.ts'

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
