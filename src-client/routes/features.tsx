import { createFileRoute } from '@tanstack/react-router'
import { PageIntro } from '../components/layout/PageIntro.tsx'

export const Route = createFileRoute('/features')({
  head: () => ({ meta: [{ title: 'Features | SkillForge' }] }),
  component: () => (
    <main>
      <PageIntro title="Features" />
    </main>
  ),
})
