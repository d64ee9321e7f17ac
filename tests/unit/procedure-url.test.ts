// A request made outside the tRPC client (the video progress sent as the page closes) names its procedure through
// procedureUrl, typed by the AppRouter: a renamed or moved procedure fails the type check, not a request.
import { describe, expect, it } from 'vitest'
import { procedureUrl } from '../../src-client/lib/trpc.ts'

describe('procedureUrl', () => {
  it('is the tRPC address of a router procedure', () => {
    expect(procedureUrl('learning', 'saveProgress')).toBe('/trpc/learning.saveProgress')
  })

  it('accepts only procedures the AppRouter has (checked by npm run typecheck)', () => {
    // @ts-expect-error a procedure learning does not have
    expect(procedureUrl('learning', 'saveProgres')).toBe('/trpc/learning.saveProgres')
    // @ts-expect-error a router the AppRouter does not have
    expect(procedureUrl('learnings', 'saveProgress')).toBe('/trpc/learnings.saveProgress')
  })
})
