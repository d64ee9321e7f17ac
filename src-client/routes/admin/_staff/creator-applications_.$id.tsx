// One application to teach: the applicant, headline, categories, proposal, links and the attached file (through
// the staff-only download route). Admins and up approve it or decline it with a reason; the server checks the role
// again, audits the decision and e-mails the applicant.

import { useMutation, useSuspenseQuery } from '@tanstack/react-query'
import { createFileRoute, Link } from '@tanstack/react-router'
import { type FormEvent, useState } from 'react'
import { detailSection, pageHead, pageTitle } from '#client/components/admin/styles.ts'
import { useRefreshAdmin, useStaff } from '#client/components/admin/use-staff.ts'
import { CreatorLinkList, creatorLinks } from '#client/components/teach/CreatorLinks.tsx'
import { badge } from '#client/components/ui/badge.ts'
import { button } from '#client/components/ui/button.ts'
import { TextAreaField } from '#client/components/ui/form.tsx'
import { routeError } from '#client/components/ui/RouteError.tsx'
import { LoadingState } from '#client/components/ui/states.tsx'
import { toastOutcome } from '#client/components/ui/toaster.tsx'
import { SCRIPT_ONLY_FORM } from '#client/lib/native-form.ts'
import { submitWhilePending, whilePending } from '#client/lib/while-pending.ts'
import { formatDate } from '#shared/dates.ts'
import { APPLICATION_MESSAGES, APPLICATION_STATUS_LABELS, declineInput } from '#shared/schemas/creators.ts'
import { css } from '#styled-system/css'

export const Route = createFileRoute('/admin/_staff/creator-applications_/$id')({
  head: () => ({ meta: [{ title: 'Creator application | SkillForge Admin' }] }),
  loader: ({ context, params }) =>
    context.queryClient.ensureQueryData(context.trpc.admin.creatorApplications.detail.queryOptions({ id: params.id })),
  pendingComponent: () => <LoadingState label="Loading the application…" />,
  errorComponent: routeError('Could not load this application'),
  component: ApplicationDetail,
})

const STATUS_TONES = { submitted: 'blue', approved: 'green', declined: 'red' } as const

function ApplicationDetail() {
  const { trpc } = Route.useRouteContext()
  const { id } = Route.useParams()
  const { can } = useStaff()
  const { data: application } = useSuspenseQuery(trpc.admin.creatorApplications.detail.queryOptions({ id }))
  const [reasonError, setReasonError] = useState<string | undefined>()
  const refresh = useRefreshAdmin()
  const approve = useMutation(
    trpc.admin.creatorApplications.approve.mutationOptions(toastOutcome(APPLICATION_MESSAGES.approved, refresh)),
  )
  const decline = useMutation(
    trpc.admin.creatorApplications.decline.mutationOptions(toastOutcome(APPLICATION_MESSAGES.declined, refresh)),
  )
  const busy = approve.isPending || decline.isPending

  function onDecline(event: FormEvent<HTMLFormElement>) {
    event.preventDefault()
    const parsed = declineInput.safeParse({ id, reason: new FormData(event.currentTarget).get('reason') })
    if (!parsed.success) {
      setReasonError(parsed.error.issues.find((issue) => issue.path[0] === 'reason')?.message)
      return
    }
    setReasonError(undefined)
    decline.mutate(parsed.data)
  }

  const links = creatorLinks(application.links)
  return (
    <>
      <p className={css({ mb: '2', fontSize: 'sm' })}>
        <Link to="/admin/creator-applications" className={css({ color: 'accent' })}>
          ← All applications
        </Link>
      </p>
      <div className={pageHead}>
        <h1 className={pageTitle}>{application.applicant.name || application.applicant.email}</h1>
        <span data-testid="admin-application-status" className={badge({ tone: STATUS_TONES[application.status] })}>
          {APPLICATION_STATUS_LABELS[application.status]}
        </span>
      </div>
      <div className={css({ display: 'grid', gap: '4' })}>
        <section className={detailSection} aria-labelledby="application-title">
          <h2 id="application-title" className={css({ fontWeight: 'semibold', fontSize: 'lg' })}>
            {application.headline}
          </h2>
          <p className={css({ fontSize: 'sm', color: 'fg.muted' })}>
            {application.applicant.email} · sent {formatDate(application.createdAt, 'mediumTime')} ·{' '}
            {application.categories.map((c) => c.name).join(', ')}
          </p>
          <p className={css({ whiteSpace: 'pre-line' })}>{application.proposal}</p>
          {links.length > 0 ? (
            <CreatorLinkList links={links} linkClass={css({ color: 'accent' })} withAddress />
          ) : (
            <p className={css({ fontSize: 'sm', color: 'fg.muted' })}>No links given.</p>
          )}
          {application.attachment ? (
            <p>
              <a href={application.attachment.url} className={css({ color: 'accent', textDecoration: 'underline' })}>
                Download {application.attachment.name}
              </a>{' '}
              <span className={css({ fontSize: 'sm', color: 'fg.muted' })}>
                ({application.attachment.contentType},{' '}
                {Math.max(1, Math.round(application.attachment.sizeBytes / 1024))} kB)
              </span>
            </p>
          ) : (
            <p className={css({ fontSize: 'sm', color: 'fg.muted' })}>No file attached.</p>
          )}
          {application.decisionReason ? (
            <p>
              <strong>Reason given:</strong> {application.decisionReason}
            </p>
          ) : null}
        </section>
        {application.status === 'submitted' && can('admin') ? (
          <section className={detailSection} aria-labelledby="decision-title">
            <h2 id="decision-title" className={css({ fontWeight: 'semibold' })}>
              Decision
            </h2>
            <button
              type="button"
              className={button({})}
              {...whilePending(busy, 'onClick', () => approve.mutate({ id }))}
            >
              {approve.isPending ? 'Approving…' : 'Approve'}
            </button>
            <form {...SCRIPT_ONLY_FORM} noValidate onSubmit={onDecline} className={css({ display: 'grid', gap: '2' })}>
              <TextAreaField
                label="Reason for declining (sent to the applicant)"
                name="reason"
                rows={4}
                maxLength={2000}
                error={reasonError}
              />
              <button type="submit" className={button({ variant: 'outline' })} {...submitWhilePending(busy)}>
                {decline.isPending ? 'Declining…' : 'Decline with this reason'}
              </button>
            </form>
          </section>
        ) : null}
      </div>
    </>
  )
}
