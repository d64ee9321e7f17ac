import { Link, useRouterState } from '@tanstack/react-router'
import { css } from '#styled-system/css'
import { button } from '../ui/button.ts'

/** The spec's 404 page: a course variant for paths under /courses/, a general one elsewhere. */
export function NotFound() {
  const pathname = useRouterState({ select: (state) => state.location.pathname })
  const isCourse = pathname.startsWith('/courses/')
  return (
    <main className={css({ flex: 1, display: 'grid', placeItems: 'center', py: '20', px: '4', textAlign: 'center' })}>
      <div>
        <p className={css({ fontSize: '6xl', fontWeight: 'extrabold', color: 'accent' })}>404</p>
        {isCourse ? (
          <>
            <h1 className={css({ fontSize: '2xl', fontWeight: 'bold', mt: '2' })}>Course Not Found</h1>
            <p className={css({ color: 'fg.muted', mt: '2' })}>
              Sorry, we couldn't find the course you're looking for. It may have been removed or the link may be wrong.
            </p>
            <div className={css({ display: 'flex', gap: '3', justifyContent: 'center', mt: '6', flexWrap: 'wrap' })}>
              <Link to="/" className={button({ variant: 'outline' })}>
                Return to Home
              </Link>
              <Link to="/courses" className={button()}>
                Browse All Courses
              </Link>
            </div>
          </>
        ) : (
          <>
            <h1 className={css({ fontSize: '2xl', fontWeight: 'bold', mt: '2' })}>
              Oops! We couldn't find the page you're looking for.
            </h1>
            <div className={css({ mt: '6' })}>
              <Link to="/" className={button()}>
                Return to Home
              </Link>
            </div>
          </>
        )}
      </div>
    </main>
  )
}
