// The creator's plan against what they use ("3 of 5 published courses", "2.1 GB of 10 GB video"); without a live
// plan, which plan fits and a link to /pricing (drafts can be built, nothing submitted).
import { Link } from '@tanstack/react-router'
import type { RouterOutputs } from '#client/lib/types.ts'
import { css } from '#styled-system/css'
import { formatStorage, ofLimit } from './format.ts'

type Standing = RouterOutputs['studio']['standing']

const PLAN_NAMES = { basic: 'Basic', pro: 'Pro', enterprise: 'Enterprise' } as const
const box = css({
  display: 'flex',
  flexWrap: 'wrap',
  gap: { base: '2', md: '6' },
  alignItems: 'center',
  p: '4',
  borderWidth: '1px',
  borderColor: 'line',
  borderRadius: 'card',
  bg: 'surface',
  fontSize: 'sm',
})

export function StandingSummary({ standing }: { standing: Standing }) {
  if (!standing.limits) {
    const plan = standing.suggestedPlanId ? PLAN_NAMES[standing.suggestedPlanId] : 'Basic'
    return (
      <section aria-label="Your plan" className={box}>
        <p>
          You can build drafts now. To submit courses for review and upload videos, choose a plan: the{' '}
          <strong>{plan}</strong> plan fits what you have built so far.
        </p>
        <Link to="/pricing" className={css({ color: 'accent', fontWeight: 'semibold', textDecoration: 'underline' })}>
          See plans and pricing
        </Link>
      </section>
    )
  }
  const limit = standing.limits.publishedCourses
  // After a move to a smaller plan: what is on sale stays on sale (decision 0038); say so instead of "7 of 5".
  const over = limit !== null && standing.publishedCourses > limit
  return (
    <section aria-label="Your plan" className={box}>
      <strong>{standing.planName ?? 'Your plan'}</strong>
      <span>{ofLimit(standing.publishedCourses, limit, 'published courses')}</span>
      {over ? (
        <span data-testid="over-limit">
          Your courses on sale stay on sale; to publish another, unpublish {standing.publishedCourses - limit + 1} or{' '}
          <Link to="/pricing" className={css({ color: 'accent', textDecoration: 'underline' })}>
            choose a larger plan
          </Link>
          .
        </span>
      ) : null}
      <span>
        {ofLimit(
          formatStorage(standing.storageUsedBytes),
          standing.limits.storageBytes === null ? null : formatStorage(standing.limits.storageBytes),
          'video',
        )}
      </span>
    </section>
  )
}
