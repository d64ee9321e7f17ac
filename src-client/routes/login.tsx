import { createFileRoute } from '@tanstack/react-router'
import { PageIntro } from '../components/layout/PageIntro.tsx'

export const Route = createFileRoute('/login')({
  head: () => ({ meta: [{ title: 'Welcome back | SkillForge' }] }),
  component: () => (
    <main>
      <PageIntro title="Welcome back" />
    </main>
  ),
})
