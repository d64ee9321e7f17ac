// Reported posts under the lessons of the courses the signed-in instructor teaches (issue 33).
import { createFileRoute } from '@tanstack/react-router'
import { ReportedPosts } from '#client/components/questions/ReportedPosts.tsx'
import { requireUser } from '#client/lib/session.ts'
import { css } from '#styled-system/css'

export const Route = createFileRoute('/studio/reported-posts')({
  beforeLoad: async ({ context, location }) => ({ user: await requireUser(context, location.href) }),
  head: () => ({ meta: [{ title: 'Reported posts | SkillForge' }] }),
  component: () => (
    <main className={css({ minW: 0 })}>
      <h1 className={css({ fontSize: '2xl', fontWeight: 'bold', mb: '4' })}>Reported posts</h1>
      <ReportedPosts />
    </main>
  ),
})
