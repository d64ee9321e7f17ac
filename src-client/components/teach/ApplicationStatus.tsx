// An application's status as its applicant sees it: Submitted, Approved or Declined (with the reason and the date
// they may apply again).

import { Link } from '@tanstack/react-router'
import { badge } from '#client/components/ui/badge.ts'
import { button } from '#client/components/ui/button.ts'
import type { RouterOutputs } from '#client/lib/types.ts'
import { formatDate } from '#shared/dates.ts'
import { APPLICATION_STATUS_LABELS } from '#shared/schemas/creators.ts'
import { css } from '#styled-system/css'

export type MyApplication = NonNullable<RouterOutputs['creators']['myApplication']>

const TONES = { submitted: 'blue', approved: 'green', declined: 'red' } as const

export function StatusBadge({ status }: { status: MyApplication['status'] }) {
  return (
    <span data-testid="application-status" className={badge({ tone: TONES[status] })}>
      {APPLICATION_STATUS_LABELS[status]}
    </span>
  )
}

export function ApplicationStatus({ application }: { application: MyApplication }) {
  const mayReapply = application.reapplyFrom !== null && new Date(application.reapplyFrom) <= new Date()
  return (
    <div className={css({ display: 'flex', flexDir: 'column', gap: '3' })}>
      <p className={css({ display: 'flex', gap: '2', alignItems: 'center', flexWrap: 'wrap' })}>
        Your application of {formatDate(application.createdAt)}: <StatusBadge status={application.status} />
      </p>
      {application.status === 'submitted' ? (
        <p>Our content team reads every application and replies by e-mail, usually within a week.</p>
      ) : null}
      {application.status === 'approved' ? (
        <>
          <p>Welcome aboard: you are a creator now. Build your first course in your studio.</p>
          <a href="/studio" className={button({ size: 'lg' })}>
            Go to your studio
          </a>
        </>
      ) : null}
      {application.status === 'declined' ? (
        <>
          <p>
            <strong>Reason:</strong> {application.decisionReason}
          </p>
          {mayReapply ? (
            <Link to="/teach/apply" className={button({})}>
              Apply again
            </Link>
          ) : application.reapplyFrom ? (
            <p>You can apply again from {formatDate(application.reapplyFrom)}.</p>
          ) : null}
        </>
      ) : null}
    </div>
  )
}
