import { createFileRoute } from '@tanstack/react-router'
import { PageIntro } from '../components/layout/PageIntro.tsx'

export const Route = createFileRoute('/careers')({
  head: () => ({ meta: [{ title: 'Careers | SkillForge' }] }),
  component: () => (
    <main>
      <PageIntro title="Careers" />
    </main>
  ),
})
