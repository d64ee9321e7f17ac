import { createFileRoute } from '@tanstack/react-router'
import { PageIntro } from '../components/layout/PageIntro.tsx'

export const Route = createFileRoute('/cart')({
  head: () => ({ meta: [{ title: 'Your Cart | SkillForge' }] }),
  component: () => (
    <main>
      <PageIntro title="Your Cart" />
    </main>
  ),
})
