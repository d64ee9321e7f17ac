import { createFileRoute } from '@tanstack/react-router'
import { PageIntro } from '../components/layout/PageIntro.tsx'

export const Route = createFileRoute('/privacy')({
  head: () => ({ meta: [{ title: 'Privacy Policy | SkillForge' }] }),
  component: () => (
    <main>
      <PageIntro title="Privacy Policy" />
    </main>
  ),
})
