import { createFileRoute } from '@tanstack/react-router'
import { PageIntro } from '../components/layout/PageIntro.tsx'

export const Route = createFileRoute('/examples')({
  head: () => ({ meta: [{ title: 'Examples | SkillForge' }] }),
  component: () => (
    <main>
      <PageIntro title="Examples" />
    </main>
  ),
})
