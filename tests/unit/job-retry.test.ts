import { describe, expect, it } from 'vitest'
import { queues } from '../../src-server/jobs/registry.ts'
import { attemptOf, nextTryWindow } from '../../src-server/jobs/retry.ts'

describe('retry timing', () => {
  const now = new Date('2026-11-23T12:00:00Z')
  const seconds = (window: { earliest: Date; latest: Date } | undefined) =>
    window ? [window.earliest, window.latest].map((at) => (at.getTime() - now.getTime()) / 1000) : undefined
  const policy = { retryDelay: 30, retryBackoff: true, retryDelayMax: 3600 }

  it("follows pg-boss's jittered back-off: d·2ⁿ⁻¹ to d·2ⁿ seconds after the n-th attempt, capped", () => {
    expect(seconds(nextTryWindow({ ...policy, retryCount: 0 }, now))).toEqual([30, 60])
    expect(seconds(nextTryWindow({ ...policy, retryCount: 4 }, now))).toEqual([480, 960])
    expect(seconds(nextTryWindow({ ...policy, retryCount: 7 }, now))).toEqual([3600, 3600])
    expect(seconds(nextTryWindow({ retryDelay: 5, retryBackoff: false, retryCount: 3 }, now))).toEqual([5, 5])
  })
  it('numbers the attempts and has no next try after the last', () => {
    const mail = { ...policy, retryLimit: queues['mail.send'].retryLimit! }
    expect(attemptOf({ ...mail, retryCount: 0 }, now)).toMatchObject({ number: 1, of: 6 })
    expect(attemptOf({ ...mail, retryCount: 5 }, now)).toEqual({ number: 6, of: 6, nextTry: undefined })
  })
  it('spreads the six mail attempts over about half an hour at most', () => {
    const { retryDelay = 0, retryBackoff = false, retryDelayMax } = queues['mail.send']
    const latest = (retryCount: number) =>
      seconds(nextTryWindow({ retryDelay, retryBackoff, retryDelayMax, retryCount }, now))![1]!
    const total = [0, 1, 2, 3, 4].reduce((sum, retryCount) => sum + latest(retryCount), 0)
    expect(total / 60).toBe(31)
  })
})
