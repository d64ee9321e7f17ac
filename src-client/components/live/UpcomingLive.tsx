// "Live session: <date> — Register" (decision 0142): a course's next live session the viewer may attend, on the course
// page, in the player and on My courses, linking to it on /live. Asked per viewer (live.upcoming), beside the course
// page's kept answer and never in it (catalog.course is the same bytes for everyone, decision 0072); only signed in.
import { useQuery } from '@tanstack/react-query'
import { Link } from '@tanstack/react-router'
import { useSession } from '#client/lib/session.ts'
import type { RouterOutputs } from '#client/lib/types.ts'
import { useTRPC } from '#client/lib/use-trpc.ts'
import { formatDate } from '#shared/dates.ts'
import { css, cx } from '#styled-system/css'

export type UpcomingSession = RouterOutputs['live']['upcoming'][number]

const line = css({ fontSize: 'sm' })
const link = css({ textDecoration: 'underline', fontWeight: 'semibold' })

/** What the link says: the next step, or the seat already taken. */
function action(session: UpcomingSession) {
  if (session.myStatus === 'registered') return 'You’re registered'
  if (session.myStatus === 'waitlisted') return 'You’re on the waitlist'
  return session.seatsLeft > 0 ? 'Register' : 'Join the waitlist'
}

/** One session's line; `more` counts the course's later sessions (all on /live). */
export function LiveSessionLine({
  session,
  more = 0,
  className,
}: {
  session: UpcomingSession
  more?: number
  className?: string
}) {
  const label = action(session)
  return (
    <p className={cx(line, className)} data-testid="upcoming-live-session">
      Live session: {formatDate(session.startsAt, 'localDayTime')} —{' '}
      <Link
        to="/live"
        hash={`live-${session.id}`}
        className={link}
        // The title in the name: a list of courses shows several of these links.
        aria-label={`${label}: ${session.title}`}
      >
        {label}
      </Link>
      {more > 0 ? ` (and ${more} more on Live sessions)` : null}
    </p>
  )
}

/** The course's next session for the signed-in viewer, or nothing (none ahead, not signed in, still loading). */
export function CourseLiveNotice({ courseId, className }: { courseId: string; className?: string }) {
  const trpc = useTRPC()
  const { user } = useSession()
  // A failed or pending answer shows nothing: the line is a pointer to /live, which says everything itself.
  const upcoming = useQuery({ ...trpc.live.upcoming.queryOptions({ courseId }), enabled: Boolean(user) })
  const sessions = user ? (upcoming.data ?? []) : []
  const next = sessions[0]
  if (!next) return null
  return <LiveSessionLine session={next} more={sessions.length - 1} className={className} />
}
