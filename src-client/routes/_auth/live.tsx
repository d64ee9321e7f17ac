// /live (issue 34): upcoming and past live sessions. Premium members see every session, buyers their courses'; register
// (or join the waitlist), cancel, and from 15 minutes before the start the Join link (through /live/<id>/join, which
// records attendance). Past sessions show their recording. On a school's own domain, the school's courses' sessions
// only, and a link to the rest on the marketplace (decision 0150).

import { useMutation, useQueryClient, useSuspenseQuery } from '@tanstack/react-query'
import { createFileRoute, Link } from '@tanstack/react-router'
import { ElsewhereNote } from '#client/components/layout/ElsewhereNote.tsx'
import { PageIntro } from '#client/components/layout/PageIntro.tsx'
import { button } from '#client/components/ui/button.ts'
import { borderedCard } from '#client/components/ui/card.ts'
import { FormAlert } from '#client/components/ui/form.tsx'
import { Container } from '#client/components/ui/layout.tsx'
import { routeError } from '#client/components/ui/RouteError.tsx'
import { EmptyState, LoadingState } from '#client/components/ui/states.tsx'
import { notify, notifyError } from '#client/components/ui/toaster.tsx'
import { countOf } from '#client/lib/format.ts'
import { useSite } from '#client/lib/site.ts'
import { whilePending } from '#client/lib/while-pending.ts'
import { formatDate } from '#shared/dates.ts'
import { css, cx } from '#styled-system/css'

const JOIN_REFUSALS: Record<string, string> = {
  'not-yet': 'The join link opens 15 minutes before the start.',
  'no-seat': 'Register for the session first: the join link is for registered members.',
  'no-access': 'This session is for Premium members and the course’s learners.',
  ended: 'This session has ended.',
  'not-found': 'That session does not exist or was cancelled.',
}

export const Route = createFileRoute('/_auth/live')({
  // A plain check, not zod: the route's options load with the entry (the home page's JavaScript budget).
  validateSearch: (search: Record<string, unknown>): { join?: string } =>
    typeof search.join === 'string' && search.join in JOIN_REFUSALS ? { join: search.join } : {},
  loader: ({ context }) => context.queryClient.ensureQueryData(context.trpc.live.list.queryOptions()),
  head: () => ({ meta: [{ title: 'Live sessions | SkillForge' }] }),
  pendingComponent: () => <LoadingState label="Loading live sessions…" />,
  errorComponent: routeError('Could not load live sessions'),
  component: LivePage,
})

// Scrolled to below the sticky header when a link names it (#live-<id>).
const card = cx(borderedCard, css({ p: '5', scrollMarginTop: '24' }))
const list = css({ display: 'flex', flexDir: 'column', gap: '4' })

type Item = {
  id: string
  title: string
  description: string
  courseTitle: string | null
  school: string | null
  startsAt: string
  durationMinutes: number
  timeZone: string
  seatsLeft: number
  waitlisted: number
  cancelled: boolean
  myStatus: 'registered' | 'waitlisted' | null
  joinPath: string | null
  joinOpensAt: string
  recording: { url: string | null; lessonPath: string | null; lessonTitle: string | null } | null
}

function when(item: Item) {
  return `${formatDate(item.startsAt, 'localDayTime')} · ${item.durationMinutes} min`
}

function SessionItem({ item, past }: { item: Item; past: boolean }) {
  const { trpc } = Route.useRouteContext()
  const queryClient = useQueryClient()
  // The whole live router: the course pages' "Live session" lines (live.upcoming) show the seat too.
  const refresh = () => queryClient.invalidateQueries({ queryKey: trpc.live.pathKey() })
  const register = useMutation(
    trpc.live.register.mutationOptions({
      // The server's reason (cancelled or ended since the page loaded), and the list as it is now.
      onError: async (error) => {
        notifyError(error, 'Could not register')
        await refresh()
      },
      onSuccess: async (result) => {
        notify(
          'success',
          result.status === 'registered'
            ? 'You are registered; we are e-mailing you the invitation'
            : 'You are on the waitlist',
        )
        await refresh()
      },
    }),
  )
  const cancel = useMutation(
    trpc.live.cancel.mutationOptions({
      onError: (error) => notifyError(error, 'Could not cancel'),
      onSuccess: async () => {
        notify('success', 'Your registration is cancelled')
        await refresh()
      },
    }),
  )
  return (
    // The id: a course page's "Live session: … Register" links here (/live#live-<id>).
    <li id={`live-${item.id}`} className={card} aria-label={item.title} data-testid="live-session">
      <h3 className={css({ fontWeight: 'semibold', fontSize: 'lg' })}>{item.title}</h3>
      <p>{when(item)}</p>
      <p className={css({ color: 'fg.muted', fontSize: 'sm' })}>
        {item.courseTitle ?? 'For all Premium members'} · scheduled in {item.timeZone}
      </p>
      {item.description ? <p className={css({ mt: '2', whiteSpace: 'pre-line' })}>{item.description}</p> : null}
      {item.cancelled ? <p className={css({ mt: '2', fontWeight: 'semibold' })}>Cancelled</p> : null}
      {/* A cancelled session never took place: no recording to wait for, only "Cancelled" above. */}
      {past && item.cancelled ? null : past ? (
        item.recording ? (
          <p className={css({ mt: '2' })} data-testid="live-recording">
            Recording:{' '}
            {item.recording.lessonPath ? (
              <a href={item.recording.lessonPath} className={css({ textDecoration: 'underline' })}>
                {item.recording.lessonTitle ?? 'Watch the lesson'}
              </a>
            ) : null}
            {/* Both given: two links, not one run-together text ("…TitleWatch the recording"). */}
            {item.recording.lessonPath && item.recording.url ? ' · ' : null}
            {item.recording.url ? (
              <a
                href={item.recording.url}
                rel="noopener noreferrer"
                target="_blank"
                className={css({ textDecoration: 'underline' })}
              >
                Watch the recording
              </a>
            ) : null}
          </p>
        ) : (
          <p className={css({ mt: '2', color: 'fg.muted' })}>No recording yet.</p>
        )
      ) : item.cancelled ? null : (
        <div className={css({ display: 'flex', gap: '2', flexWrap: 'wrap', alignItems: 'center', mt: '3' })}>
          {item.myStatus === 'registered' ? (
            <span data-testid="live-status">You are registered</span>
          ) : item.myStatus === 'waitlisted' ? (
            <span data-testid="live-status">You are on the waitlist</span>
          ) : (
            <span>
              {item.seatsLeft > 0
                ? `${countOf(item.seatsLeft, 'seat')} left`
                : 'Full: registering puts you on the waitlist'}
            </span>
          )}
          {item.joinPath ? (
            <a href={item.joinPath} className={button({ variant: 'primary' })}>
              Join now
            </a>
          ) : item.myStatus === 'registered' ? (
            <span className={css({ color: 'fg.muted', fontSize: 'sm' })}>
              The join link opens {formatDate(item.joinOpensAt, 'localDayTime')}
            </span>
          ) : null}
          {item.myStatus ? (
            <button
              type="button"
              className={button({ variant: 'outline' })}
              {...whilePending(cancel.isPending, 'onClick', () => cancel.mutate({ sessionId: item.id }))}
            >
              Cancel registration
            </button>
          ) : (
            <button
              type="button"
              className={button({ variant: 'primary' })}
              {...whilePending(register.isPending, 'onClick', () => register.mutate({ sessionId: item.id }))}
            >
              {item.seatsLeft > 0 ? 'Register' : 'Join the waitlist'}
            </button>
          )}
        </div>
      )}
    </li>
  )
}

function LivePage() {
  const { trpc } = Route.useRouteContext()
  const { join } = Route.useSearch()
  const { data } = useSuspenseQuery(trpc.live.list.queryOptions())
  const site = useSite()
  const own = (items: Item[]) => (site ? items.filter((item) => item.school === site.slug) : items)
  const upcoming = own(data.upcoming)
  const past = own(data.past)
  const elsewhere = data.upcoming.length + data.past.length - upcoming.length - past.length
  return (
    <main>
      <PageIntro title="Live sessions">
        {site
          ? `Live sessions of ${site.name}’s courses you hold.`
          : data.premium
            ? 'Every live session is open to you as a Premium member.'
            : 'Live sessions of the courses you hold.'}
      </PageIntro>
      <Container className={css({ py: '8', display: 'flex', flexDir: 'column', gap: '8' })}>
        {join ? <FormAlert>{JOIN_REFUSALS[join]}</FormAlert> : null}
        <section aria-labelledby="upcoming-title">
          <h2 id="upcoming-title" className={css({ fontSize: 'xl', fontWeight: 'bold', mb: '3' })}>
            Upcoming
          </h2>
          {upcoming.length === 0 ? (
            <EmptyState title="No upcoming live sessions">
              {data.premium || site ? null : (
                <p className={css({ mt: '2' })}>
                  Premium members join every session.{' '}
                  <Link to="/pricing" className={css({ textDecoration: 'underline' })}>
                    See Premium
                  </Link>
                </p>
              )}
            </EmptyState>
          ) : (
            <ul className={list}>
              {upcoming.map((item) => (
                <SessionItem key={item.id} item={item} past={false} />
              ))}
            </ul>
          )}
        </section>
        <section aria-labelledby="past-title">
          <h2 id="past-title" className={css({ fontSize: 'xl', fontWeight: 'bold', mb: '3' })}>
            Past
          </h2>
          {past.length === 0 ? (
            <p>No past sessions yet.</p>
          ) : (
            <ul className={list}>
              {past.map((item) => (
                <SessionItem key={item.id} item={item} past />
              ))}
            </ul>
          )}
        </section>
        {site ? (
          <ElsewhereNote
            site={site}
            count={elsewhere}
            noun={['live session you may attend', 'live sessions you may attend']}
            path="/live"
            linkText="See all your live sessions"
            testId="live-elsewhere"
          />
        ) : null}
      </Container>
    </main>
  )
}
