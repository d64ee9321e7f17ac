// How a plan is told in words (src-shared/membership.ts): the same on /account, for staff and in e-mails.
import { describe, expect, it } from 'vitest'
import {
  annualSavingPercent,
  type MembershipFacts,
  membershipStatusText,
  trialChargeText,
  trialStartedText,
} from '../../src-shared/membership.ts'

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
    expect(membershipStatusText(facts({ ...ended, endReason: 'cancellation' }))).toBe('Cancelled on 28 November 2026')
    expect(membershipStatusText(facts({ ...ended, endReason: 'lapse' }))).toBe(
      'Ended on 28 November 2026 — payment failed',
    )
    expect(membershipStatusText(facts({ ...ended, endReason: 'refund' }))).toBe('Refunded on 28 November 2026')
    expect(membershipStatusText(facts({ status: 'cancelled' }))).toBe('Cancelled')
  })

  it('tells a live plan as before', () => {
    expect(membershipStatusText(facts({}))).toBe('Active — renews on 1 December 2026 for $9.99')
    expect(membershipStatusText(facts({ cancelAtPeriodEnd: true }))).toBe('Cancels on 1 December 2026')
    expect(membershipStatusText(facts({ status: 'past_due' }))).toBe('Past due — update your card')
  })

  it('writes every day as the screens do, "1 December 2026", never the US "December 1, 2026" (decision 0095)', () => {
    const days = ['2026-12-01T10:00:00.000Z', '2027-01-09T00:00:00.000Z', '2026-11-28T23:30:00.000Z']
    const sentences = days.flatMap((day) => [
      membershipStatusText(facts({ renewsAt: day })),
      membershipStatusText(facts({ renewsAt: day, cancelAtPeriodEnd: true })),
      membershipStatusText(facts({ status: 'trialing', trialEndsAt: day })),
      ...(['cancellation', 'lapse', 'refund'] as const).map((endReason) =>
        membershipStatusText(facts({ status: 'cancelled', endedAt: day, endReason })),
      ),
      trialStartedText(1999, 'GBP', day),
      trialStartedText(999, 'USD', new Date(day)),
    ])
    const usDay =
      /\b(January|February|March|April|May|June|July|August|September|October|November|December) \d{1,2}, \d{4}/
    for (const sentence of sentences) {
      expect(sentence).not.toMatch(usDay)
      expect(sentence).toMatch(/\b\d{1,2} (January|November|December) 20\d\d\b/)
    }
    expect(trialStartedText(1999, 'GBP', '2027-01-09T00:00:00.000Z')).toBe(
      'Free trial started — first charge of £19.99 on 9 January 2027',
    )
    expect(membershipStatusText(facts({ status: 'trialing', trialEndsAt: '2027-01-09T00:00:00.000Z' }))).toBe(
      'Free trial until 9 January 2027 — first charge of $9.99',
    )
    expect(trialChargeText(0, 'USD')).not.toMatch(/\d{4}/)
  })
})

describe('annualSavingPercent', () => {
  it('is the smallest saving of the plans, rounded down: the seed’s prices save 16%, not the spec’s 20%', () => {
    const seed = [
      { monthlyPriceMinor: 999, annualPriceMinor: 9999 },
      { monthlyPriceMinor: 1999, annualPriceMinor: 19999 },
      { monthlyPriceMinor: 4999, annualPriceMinor: 49999 },
    ]
    expect(annualSavingPercent(seed)).toBe(16)
    expect(annualSavingPercent([{ monthlyPriceMinor: 1000, annualPriceMinor: 9600 }])).toBe(20)
    expect(annualSavingPercent([...seed, { monthlyPriceMinor: 1000, annualPriceMinor: 11000 }])).toBe(8)
  })

  it('is 0 when annual saves nothing, costs more, or there is no paid plan', () => {
    expect(annualSavingPercent([{ monthlyPriceMinor: 1000, annualPriceMinor: 12000 }])).toBe(0)
    expect(annualSavingPercent([{ monthlyPriceMinor: 1000, annualPriceMinor: 13000 }])).toBe(0)
    expect(annualSavingPercent([{ monthlyPriceMinor: 0, annualPriceMinor: 0 }])).toBe(0)
    expect(annualSavingPercent([])).toBe(0)
  })
})
