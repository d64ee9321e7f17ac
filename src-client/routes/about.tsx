import { createFileRoute } from '@tanstack/react-router'
import { PageIntro } from '../components/layout/PageIntro.tsx'

export const Route = createFileRoute('/about')({
  head: () => ({ meta: [{ title: 'About Us | SkillForge' }] }),
  component: () => (
    <main>
      <PageIntro title="About Us" />
    </main>
  ),
})
