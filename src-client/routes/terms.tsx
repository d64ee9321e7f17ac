import { createFileRoute } from '@tanstack/react-router'
import { PageIntro } from '../components/layout/PageIntro.tsx'

export const Route = createFileRoute('/terms')({
  head: () => ({ meta: [{ title: 'Terms of Service | SkillForge' }] }),
  component: () => (
    <main>
      <PageIntro title="Terms of Service" />
    </main>
  ),
})
