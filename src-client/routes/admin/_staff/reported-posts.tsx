// Reported posts under lessons (issue 33), every course's: staff editors hide, restore or dismiss.
import { createFileRoute } from '@tanstack/react-router'
import { pageHead, pageTitle } from '#client/components/admin/styles.ts'
import { ReportedPosts } from '#client/components/questions/ReportedPosts.tsx'

export const Route = createFileRoute('/admin/_staff/reported-posts')({
  head: () => ({ meta: [{ title: 'Reported posts | SkillForge Admin' }] }),
  component: () => (
    <>
      <div className={pageHead}>
        <h1 className={pageTitle}>Reported posts</h1>
      </div>
      <ReportedPosts />
    </>
  ),
})
