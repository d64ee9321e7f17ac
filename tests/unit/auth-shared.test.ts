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
