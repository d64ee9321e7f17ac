// How a plan is told in words (src-shared/membership.ts): the same on /account, for staff and in e-mails.
import { describe, expect, it } from 'vitest'
import { type MembershipFacts, membershipStatusText } from '../../src-shared/membership.ts'

const facts = (overrides: Partial<MembershipFacts>): MembershipFacts => ({
  status: 'active',
  renewsAt: '2026-12-01T10:00:00.000Z',
  trialEndsAt: null,
  cancelAtPeriodEnd: false,
  amountMinor: 999,
  currency: 'USD',
  ...overrides,
})

describe('a plan told in words', () => {
  it('says when and why a plan ended: cancelled, lapsed after a failed payment, refunded', () => {
    const ended = { status: 'cancelled' as const, endedAt: '2026-11-28T23:30:00.000Z' }
    expect(membershipStatusText(facts({ ...ended, endReason: 'cancellation' }))).toBe('Cancelled on November 28, 2026')
    expect(membershipStatusText(facts({ ...ended, endReason: 'lapse' }))).toBe(
      'Ended on November 28, 2026 — payment failed',
    )
    expect(membershipStatusText(facts({ ...ended, endReason: 'refund' }))).toBe('Refunded on November 28, 2026')
    expect(membershipStatusText(facts({ status: 'cancelled' }))).toBe('Cancelled')
  })

  it('tells a live plan as before', () => {
    expect(membershipStatusText(facts({}))).toBe('Active — renews on December 1, 2026 for $9.99')
    expect(membershipStatusText(facts({ cancelAtPeriodEnd: true }))).toBe('Cancels on December 1, 2026')
    expect(membershipStatusText(facts({ status: 'past_due' }))).toBe('Past due — update your card')
  })
})
