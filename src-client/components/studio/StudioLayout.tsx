// The studio's frame: its own navigation (Courses, Uploads, Profile, Earnings, Payouts, Coupons) above the page.
import { Link, Outlet, useRouterState } from '@tanstack/react-router'
import { Container } from '#client/components/ui/layout.tsx'
import { css, cx } from '#styled-system/css'

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
  // Courses is current on the list and on every course's pages, not on Uploads or Profile.
  const onCourses = useRouterState({ select: (state) => state.location.pathname.startsWith('/studio/courses') })
  return (
    <div className={css({ display: 'flex', flexDir: 'column', flex: 1, bg: 'canvas' })}>
      <div className={css({ bg: 'surface', borderBottomWidth: '1px', borderColor: 'line' })}>
        <Container>
          <nav
            aria-label="Studio"
            className={css({ display: 'flex', alignItems: 'center', gap: '1', flexWrap: 'wrap' })}
          >
            <span className={css({ fontWeight: 'bold', fontSize: 'lg', py: '2', mr: '3' })}>Studio</span>
            <Link
              to="/studio"
              className={cx(navLink, onCourses && 'active')}
              activeOptions={{ exact: true, includeSearch: false }}
            >
              Courses
            </Link>
            <Link to="/studio/bundles" className={navLink}>
              Bundles
            </Link>
            <Link to="/studio/uploads" className={navLink}>
              Uploads
            </Link>
            <Link to="/studio/profile" className={navLink}>
              Profile
            </Link>
            <Link to="/studio/earnings" className={navLink}>
              Earnings
            </Link>
            <Link to="/studio/payouts" className={navLink}>
              Payouts
            </Link>
            <Link to="/studio/coupons" className={navLink}>
              Coupons
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
