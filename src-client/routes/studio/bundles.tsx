// /studio/bundles: the creator's bundles of their own published courses (a Pro feature; the server refuses Basic).
import { createFileRoute } from '@tanstack/react-router'
import { BundleManager } from '#client/components/bundles/BundleManager.tsx'
import { css } from '#styled-system/css'

export const Route = createFileRoute('/studio/bundles')({
  head: () => ({ meta: [{ title: 'Bundles | Studio | SkillForge' }, { name: 'robots', content: 'noindex' }] }),
  component: () => (
    <main className={css({ display: 'flex', flexDir: 'column', gap: '6', minW: 0 })}>
      <BundleManager
        scope="studio"
        intro="Sell two or more of your published courses at one price (Pro and Enterprise plans)."
      />
    </main>
  ),
})
