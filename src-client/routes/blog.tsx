import { createFileRoute } from '@tanstack/react-router'
import { PageIntro } from '../components/layout/PageIntro.tsx'

export const Route = createFileRoute('/blog')({
  head: () => ({ meta: [{ title: 'Blog | SkillForge' }] }),
  component: () => (
    <main>
      <PageIntro title="Blog" />
    </main>
  ),
})
