import { createFileRoute } from '@tanstack/react-router'
import { PageIntro } from '../components/layout/PageIntro.tsx'

export const Route = createFileRoute('/pricing')({
  head: () => ({ meta: [{ title: 'Pricing | SkillForge' }] }),
  component: () => (
    <main>
      <PageIntro title="Pricing" />
    </main>
  ),
})
