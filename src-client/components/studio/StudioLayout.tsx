// The studio's frame: its own navigation (Courses, Uploads, Profile, Earnings, Payouts, Coupons, Messages) above the page.
import { Link, Outlet, useRouteContext, useRouterState } from '@tanstack/react-router'
import { Container } from '#client/components/ui/layout.tsx'
import { css, cx } from '#styled-system/css'
import { studioTab } from './tab.ts'

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
                  className={cx(studioTab, onCourses && 'active')}
                  activeOptions={{ exact: true, includeSearch: false }}
                >
                  Courses
                </Link>
                <Link to="/studio/bundles" className={studioTab}>
                  Bundles
                </Link>
                <Link to="/studio/uploads" className={studioTab}>
                  Uploads
                </Link>
                <Link to="/studio/school" className={studioTab}>
                  School
                </Link>
                <Link to="/studio/domain" className={studioTab}>
                  Domain and brand
                </Link>
                <Link to="/studio/webhooks" className={studioTab}>
                  Webhooks
                </Link>
                <Link to="/studio/sso" className={studioTab}>
                  SSO
                </Link>
                <Link to="/studio/api" className={studioTab}>
                  API
                </Link>
                <Link to="/studio/profile" className={studioTab}>
                  Profile
                </Link>
                <Link to="/studio/earnings" className={studioTab}>
                  Earnings
                </Link>
                <Link to="/studio/analytics" className={studioTab}>
                  Analytics
                </Link>
                <Link to="/studio/payouts" className={studioTab}>
                  Payouts
                </Link>
                <Link to="/studio/coupons" className={studioTab}>
                  Coupons
                </Link>
              </>
            ) : null}
            <Link to="/studio/messages" className={studioTab}>
              Messages
            </Link>
            {creator ? (
              <Link to="/studio/live" className={studioTab}>
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
