import { describe, expect, it } from 'vitest'
import { isClientRoute } from '../../src-server/http/client.ts'

describe('isClientRoute (SPA fallback rule)', () => {
  it('answers page navigations with the app', () => {
    expect(isClientRoute('GET', '/')).toBe(true)
    expect(isClientRoute('GET', '/courses/website-seo?x=1')).toBe(true)
    expect(isClientRoute('GET', '/admin/courses')).toBe(true)
    expect(isClientRoute('GET', '/auth/callback')).toBe(true)
  })
  it('never answers API calls, assets or other methods with HTML', () => {
    expect(isClientRoute('GET', '/assets/missing-abc123.js')).toBe(false)
    expect(isClientRoute('GET', '/favicon.ico')).toBe(false)
    expect(isClientRoute('GET', '/trpc/catalog.nothing')).toBe(false)
    expect(isClientRoute('GET', '/api/anything')).toBe(false)
    expect(isClientRoute('POST', '/courses')).toBe(false)
  })
})
