import { describe, expect, it } from 'vitest'
import { mailSendQueue, nextTryWindow } from '../../src-server/mail/delivery.ts'

describe('nextTryWindow', () => {
  const now = new Date('2026-11-23T12:00:00Z')
  const seconds = (window: { earliest: Date; latest: Date }) =>
    [window.earliest, window.latest].map((at) => (at.getTime() - now.getTime()) / 1000)
  const policy = { retryDelay: 30, retryBackoff: true, retryDelayMax: 3600 }

  it("follows pg-boss's jittered back-off: d·2ⁿ⁻¹ to d·2ⁿ seconds after the n-th attempt, capped", () => {
    expect(seconds(nextTryWindow({ ...policy, retryCount: 0 }, now))).toEqual([30, 60])
    expect(seconds(nextTryWindow({ ...policy, retryCount: 4 }, now))).toEqual([480, 960])
    expect(seconds(nextTryWindow({ ...policy, retryCount: 7 }, now))).toEqual([3600, 3600])
  })
  it('is exact without back-off', () => {
    expect(seconds(nextTryWindow({ retryDelay: 5, retryBackoff: false, retryCount: 3 }, now))).toEqual([5, 5])
  })
  it('gives mail six attempts, the last one within about half an hour', () => {
    expect(mailSendQueue.retryLimit).toBe(5)
    const latest = [0, 1, 2, 3, 4].reduce((sum, retryCount) => {
      const [, late] = seconds(nextTryWindow({ ...policy, retryCount }, now))
      return sum + late!
    }, 0)
    expect(latest / 60).toBe(31)
  })
})
