// The staff area's not-found page: an /admin path that names no screen, or a record that does not exist.
import { Link } from '@tanstack/react-router'
import { button } from '#client/components/ui/button.ts'
import { css } from '#styled-system/css'

export function AdminNotFound() {
  return (
    <div className={css({ textAlign: 'center', py: '16' })}>
      <h1 className={css({ fontSize: '2xl', fontWeight: 'bold' })}>Page not found</h1>
      <p className={css({ color: 'fg.muted', mt: '2', mb: '6' })}>This admin page does not exist.</p>
      <Link to="/admin" className={button()}>
        Back to the dashboard
      </Link>
    </div>
  )
}
