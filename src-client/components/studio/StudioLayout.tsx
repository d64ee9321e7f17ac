// The studio's frame: its own navigation (Courses, Profile, Earnings, Payouts) above the page.
import { Link, Outlet } from '@tanstack/react-router'
import { Container } from '#client/components/ui/layout.tsx'
import { css } from '#styled-system/css'

const navLink = css({
  display: 'inline-flex',
  alignItems: 'center',
  minH: '11',
  px: '3',
  fontWeight: 'semibold',
  fontSize: 'sm',
  borderBottomWidth: '2px',
  borderColor: 'transparent',
  color: 'fg.muted',
  _hover: { color: 'fg' },
  '&[aria-current=page], &.active': { color: 'fg', borderColor: 'accent' },
})

export function StudioLayout() {
  return (
    <div className={css({ display: 'flex', flexDir: 'column', flex: 1, bg: 'canvas' })}>
      <div className={css({ bg: 'surface', borderBottomWidth: '1px', borderColor: 'line' })}>
        <Container>
          <nav
            aria-label="Studio"
            className={css({ display: 'flex', alignItems: 'center', gap: '1', flexWrap: 'wrap' })}
          >
            <span className={css({ fontWeight: 'bold', fontSize: 'lg', py: '2', mr: '3' })}>Studio</span>
            <Link to="/studio" className={navLink} activeOptions={{ exact: false, includeSearch: false }}>
              Courses
            </Link>
            {/* The profile page is the instructor profile part's (issue 30). */}
            <a href="/studio/profile" className={navLink}>
              Profile
            </a>
            <Link to="/studio/earnings" className={navLink}>
              Earnings
            </Link>
            <Link to="/studio/payouts" className={navLink}>
              Payouts
            </Link>
          </nav>
        </Container>
      </div>
      <Container
        className={css({ py: { base: '6', md: '8' }, display: 'flex', flexDir: 'column', gap: '6', w: 'full' })}
      >
        <Outlet />
      </Container>
    </div>
  )
}
