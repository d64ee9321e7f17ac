// Any other /admin path: inside the staff layout, so visitors are sent to /admin/login like everywhere else.
import { createFileRoute, Link } from '@tanstack/react-router'
import { button } from '#client/components/ui/button.ts'
import { css } from '#styled-system/css'

export const Route = createFileRoute('/admin/_staff/$')({
  head: () => ({ meta: [{ title: 'Page not found | SkillForge Admin' }] }),
  component: () => (
    <div className={css({ textAlign: 'center', py: '16' })}>
      <h1 className={css({ fontSize: '2xl', fontWeight: 'bold' })}>Page not found</h1>
      <p className={css({ color: 'fg.muted', mt: '2', mb: '6' })}>This admin page does not exist.</p>
      <Link to="/admin" className={button()}>
        Back to the dashboard
      </Link>
    </div>
  ),
})
