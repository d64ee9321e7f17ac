// Small client helpers shared by several screens: page numbers of the one Pagination, and avatar initials.
import { describe, expect, it } from 'vitest'
import { pageNumbers } from '../../src-client/components/ui/Pagination.tsx'
import { initials } from '../../src-client/lib/initials.ts'

describe('pageNumbers', () => {
  it('lists every page of a short list', () => {
    expect(pageNumbers(2, 4)).toEqual([1, 2, 3, 4])
  })
  it('keeps the first, the last and two around the current page, with gaps between', () => {
    expect(pageNumbers(6, 12)).toEqual([1, 'gap', 4, 5, 6, 7, 8, 'gap', 12])
    expect(pageNumbers(1, 12)).toEqual([1, 2, 3, 'gap', 12])
  })
})

describe('initials', () => {
  it('takes up to two first letters of the name', () => {
    expect(initials('ada lovelace')).toBe('AL')
    expect(initials('  Mary  Ann Smith ')).toBe('MA')
    expect(initials('Cher')).toBe('C')
  })
  it("falls back to the e-mail's first letter when there is no name", () => {
    expect(initials(' ', 'zed@example.test')).toBe('Z')
    expect(initials('')).toBe('')
  })
})
