// The support each plan promises on /pricing ("Email support", "Priority email support", "24/7 priority support" with a
// "Dedicated success manager"; the Compare row "Email / Priority email / 24/7 dedicated"), and how soon staff reply.
// A message takes the tier of its sender's live plan when it is sent (decision 0098).

export const SUPPORT_TIERS = ['email', 'priority', 'dedicated'] as const
export type SupportTier = (typeof SUPPORT_TIERS)[number]

export const SUPPORT_TIER_INFO: Record<SupportTier, { label: string; replyWithinHours: number }> = {
  email: { label: 'Email', replyWithinHours: 48 },
  priority: { label: 'Priority email', replyWithinHours: 24 },
  // Round the clock: the due time counts every hour, nights and weekends too.
  dedicated: { label: '24/7 dedicated', replyWithinHours: 4 },
}

/** Pro gives priority email, Enterprise 24/7 dedicated support; Basic, and everyone else, email support. */
export function supportTierFor(planId: string | null | undefined): SupportTier {
  if (planId === 'enterprise') return 'dedicated'
  if (planId === 'pro') return 'priority'
  return 'email'
}

/** When a message of the tier sent at `sentAt` is due an answer. */
export function replyDueAt(tier: SupportTier, sentAt: Date): Date {
  return new Date(sentAt.getTime() + SUPPORT_TIER_INFO[tier].replyWithinHours * 3_600_000)
}
