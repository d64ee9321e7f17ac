import { createFileRoute } from '@tanstack/react-router'
import { PageIntro } from '../components/layout/PageIntro.tsx'

export const Route = createFileRoute('/contact')({
  head: () => ({ meta: [{ title: 'Contact Us | SkillForge' }] }),
  component: () => (
    <main>
      <PageIntro title="Contact Us" />
    </main>
  ),
})
