// /studio/bundles: the creator's bundles of their own published courses (a Pro feature; the server refuses Basic, and
// the page says so instead of offering a form it would refuse).
import { useSuspenseQuery } from '@tanstack/react-query'
import { createFileRoute } from '@tanstack/react-router'
import { BundleManager } from '#client/components/bundles/BundleManager.tsx'
import { planIncludesPromotions } from '#shared/creator-plans.ts'
import { BUNDLE_MESSAGES } from '#shared/schemas/bundles.ts'
import { css } from '#styled-system/css'

export const Route = createFileRoute('/studio/bundles')({
  head: () => ({ meta: [{ title: 'Bundles | Studio | SkillForge' }, { name: 'robots', content: 'noindex' }] }),
  component: StudioBundles,
})

function StudioBundles() {
  const { trpc } = Route.useRouteContext()
  // Loaded by the studio's layout before any of its pages.
  const { data: standing } = useSuspenseQuery(trpc.studio.standing.queryOptions())
  return (
    <main className={css({ display: 'flex', flexDir: 'column', gap: '6', minW: 0 })}>
      <BundleManager
        scope="studio"
        intro="Sell two or more of your published courses at one price (Pro and Enterprise plans)."
        planNeeded={planIncludesPromotions(standing.planId) ? undefined : BUNDLE_MESSAGES.planNeeded}
      />
    </main>
  )
}
