// /teach/application: the applicant's latest application and its status (Submitted, Approved, Declined with the
// reason). Signed-in only; the server answers only the caller's own application.
import { useSuspenseQuery } from '@tanstack/react-query'
import { createFileRoute, Link } from '@tanstack/react-router'
import { PageIntro } from '#client/components/layout/PageIntro.tsx'
import { ApplicationStatus } from '#client/components/teach/ApplicationStatus.tsx'
import { button } from '#client/components/ui/button.ts'
import { Container, TitledSection } from '#client/components/ui/layout.tsx'
import { routeError } from '#client/components/ui/RouteError.tsx'
import { EmptyState, LoadingState } from '#client/components/ui/states.tsx'
import { requireUser } from '#client/lib/session.ts'
import { css } from '#styled-system/css'

export const Route = createFileRoute('/teach/application')({
  beforeLoad: ({ context, location, preload }) => requireUser(context, location.href, { preload }),
  loader: ({ context }) => context.queryClient.ensureQueryData(context.trpc.creators.myApplication.queryOptions()),
  head: () => ({ meta: [{ title: 'Your application | SkillForge' }] }),
  pendingComponent: () => <LoadingState label="Loading your application…" />,
  errorComponent: routeError('Could not load your application'),
  component: ApplicationPage,
})

function ApplicationPage() {
  const { trpc } = Route.useRouteContext()
  const { data: application } = useSuspenseQuery(trpc.creators.myApplication.queryOptions())
  return (
    <main>
      <PageIntro title="Your application to teach" />
      <Container className={css({ pt: '8', pb: '16', maxW: '3xl' })}>
        {application ? (
          <div className={css({ display: 'flex', flexDir: 'column', gap: '4' })}>
            <ApplicationStatus application={application} />
            <TitledSection
              id="sent"
              title="What you sent"
              className={css({ borderTopWidth: '1px', borderColor: 'line', pt: '4' })}
              titleClassName={css({ fontWeight: 'bold', mb: '2' })}
            >
              <p className={css({ fontWeight: 'semibold' })}>{application.headline}</p>
              <p className={css({ fontSize: 'sm', color: 'fg.muted' })}>
                {application.categories.map((c) => c.name).join(', ')}
              </p>
              <p className={css({ mt: '2', whiteSpace: 'pre-line' })}>{application.proposal}</p>
              {application.attachment ? (
                <p className={css({ mt: '2' })}>
                  <a
                    href={application.attachment.url}
                    className={css({ color: 'accent', textDecoration: 'underline' })}
                  >
                    {application.attachment.name}
                  </a>
                </p>
              ) : null}
            </TitledSection>
          </div>
        ) : (
          <EmptyState title="You have not applied yet">
            <Link to="/teach/apply" className={button({})}>
              Apply to teach
            </Link>
          </EmptyState>
        )}
      </Container>
    </main>
  )
}
