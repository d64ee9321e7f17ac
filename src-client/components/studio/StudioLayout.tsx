// The studio's frame: its own navigation (Courses, Uploads, Profile, Earnings, Payouts, Coupons, Messages) above the page.
import { Link, Outlet, useRouteContext, useRouterState } from '@tanstack/react-router'
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
  // A course's team member who is not a creator sees the inbox only (routes/studio/route.tsx).
  const creator = useRouteContext({ from: '/studio', select: (context) => context.studioCreator })
  return (
    <div className={css({ display: 'flex', flexDir: 'column', flex: 1, bg: 'canvas' })}>
      <div className={css({ bg: 'surface', borderBottomWidth: '1px', borderColor: 'line' })}>
        <Container>
          <nav
            aria-label="Studio"
            className={css({ display: 'flex', alignItems: 'center', gap: '1', flexWrap: 'wrap' })}
          >
            <span className={css({ fontWeight: 'bold', fontSize: 'lg', py: '2', mr: '3' })}>Studio</span>
            {creator ? (
              <>
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
                <Link to="/studio/school" className={navLink}>
                  School
                </Link>
                <Link to="/studio/domain" className={navLink}>
                  Domain and brand
                </Link>
                <Link to="/studio/webhooks" className={navLink}>
                  Webhooks
                </Link>
                <Link to="/studio/sso" className={navLink}>
                  SSO
                </Link>
                <Link to="/studio/api" className={navLink}>
                  API
                </Link>
                <Link to="/studio/profile" className={navLink}>
                  Profile
                </Link>
                <Link to="/studio/earnings" className={navLink}>
                  Earnings
                </Link>
                <Link to="/studio/analytics" className={navLink}>
                  Analytics
                </Link>
                <Link to="/studio/payouts" className={navLink}>
                  Payouts
                </Link>
                <Link to="/studio/coupons" className={navLink}>
                  Coupons
                </Link>
              </>
            ) : null}
            <Link to="/studio/messages" className={navLink}>
              Messages
            </Link>
            {creator ? (
              <Link to="/studio/live" className={navLink}>
                Live sessions
              </Link>
            ) : null}
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
