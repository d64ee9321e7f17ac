import { createFileRoute } from '@tanstack/react-router'
import { PageIntro } from '../components/layout/PageIntro.tsx'

export const Route = createFileRoute('/cookies')({
  head: () => ({ meta: [{ title: 'Cookie Policy | SkillForge' }] }),
  component: () => (
    <main>
      <PageIntro title="Cookie Policy" />
    </main>
  ),
})
