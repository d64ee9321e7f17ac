import { createFileRoute } from '@tanstack/react-router'
import { PageIntro } from '../components/layout/PageIntro.tsx'

export const Route = createFileRoute('/signup')({
  head: () => ({ meta: [{ title: 'Create your account | SkillForge' }] }),
  component: () => (
    <main>
      <PageIntro title="Create your account" />
    </main>
  ),
})
