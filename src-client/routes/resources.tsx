import { createFileRoute } from '@tanstack/react-router'
import { PageIntro } from '../components/layout/PageIntro.tsx'

export const Route = createFileRoute('/resources')({
  head: () => ({ meta: [{ title: 'Resources | SkillForge' }] }),
  component: () => (
    <main>
      <PageIntro title="Resources" />
    </main>
  ),
})
