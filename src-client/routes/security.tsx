import { createFileRoute } from '@tanstack/react-router'
import { PageIntro } from '../components/layout/PageIntro.tsx'

export const Route = createFileRoute('/security')({
  head: () => ({ meta: [{ title: 'Security | SkillForge' }] }),
  component: () => (
    <main>
      <PageIntro title="Security" />
    </main>
  ),
})
