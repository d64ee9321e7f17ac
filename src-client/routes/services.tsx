import { createFileRoute } from '@tanstack/react-router'
import { PageIntro } from '../components/layout/PageIntro.tsx'

export const Route = createFileRoute('/services')({
  head: () => ({ meta: [{ title: 'Professional Business Services | SkillForge' }] }),
  component: () => (
    <main>
      <PageIntro title="Professional Business Services" />
    </main>
  ),
})
