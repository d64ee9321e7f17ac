// The mail outbox: every message the shop sent or tried to send, its state, its body, and Resend for a failed
// one. Admins and the owner only (the server checks); without SMTP it is where verification and invitation
// links can be read.

import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { createFileRoute, useNavigate } from '@tanstack/react-router'
import { useState } from 'react'
import { AdminDialog } from '#client/components/admin/AdminDialog.tsx'
import { AdminTable, PagedList } from '#client/components/admin/AdminTable.tsx'
import { FindForm } from '#client/components/admin/FindForm.tsx'
import { StatusFilter } from '#client/components/admin/StatusFilter.tsx'
import { atPage, type StatusPage, statusListRoute } from '#client/components/admin/search.ts'
import { errorText, pageHead, pageTitle } from '#client/components/admin/styles.ts'
import { badge } from '#client/components/ui/badge.ts'
import { button } from '#client/components/ui/button.ts'
import { routeError } from '#client/components/ui/RouteError.tsx'
import { LoadingState } from '#client/components/ui/states.tsx'
import { reloadThenToast } from '#client/components/ui/toaster.tsx'
import type { Trpc } from '#client/lib/trpc.ts'
import { whilePending } from '#client/lib/while-pending.ts'
import { OUTBOX_STATUS_LABELS as LABEL, OUTBOX_STATUSES as STATUSES } from '#shared/admin.ts'
import { formatDate } from '#shared/dates.ts'
import { searchedAddress } from '#shared/schemas/admin.ts'
import { css } from '#styled-system/css'

type Status = (typeof STATUSES)[number]
const TONE = { pending: 'yellow', sent: 'green', logged: 'blue', failed: 'red' } as const

// The recipient searched for is the page's own state, not its URL (components/admin/FindForm.tsx).
const outboxQuery = (trpc: Trpc, { status, page = 1 }: StatusPage<Status>, recipient?: string) =>
  trpc.admin.outbox.list.queryOptions({ status, page, recipient })

export const Route = createFileRoute('/admin/_staff/outbox')({
  head: () => ({ meta: [{ title: 'Outbox | SkillForge Admin' }] }),
  ...statusListRoute(STATUSES, outboxQuery),
  pendingComponent: () => <LoadingState label="Loading the outbox…" />,
  errorComponent: routeError('Could not load the outbox'),
  component: Outbox,
})

function Outbox() {
  const { trpc } = Route.useRouteContext()
  const search = Route.useSearch()
  const navigate = useNavigate({ from: Route.fullPath })
  const queryClient = useQueryClient()
  const [viewing, setViewing] = useState<string | null>(null)
  const [recipient, setRecipient] = useState<string>()
  const outbox = useQuery({ ...outboxQuery(trpc, search, recipient), placeholderData: keepPreviousData })
  const resend = useMutation(
    trpc.admin.outbox.resend.mutationOptions(
      reloadThenToast(
        () => queryClient.invalidateQueries({ queryKey: trpc.admin.outbox.pathKey() }),
        'Message queued again',
      ),
    ),
  )

  return (
    <>
      <div className={pageHead}>
        <h1 className={pageTitle}>Outbox</h1>
        <StatusFilter
          value={search.status}
          statuses={STATUSES}
          labels={LABEL}
          allLabel="All messages"
          onChange={(status) => void navigate({ search: { status } })}
        />
      </div>
      <FindForm
        landmark="Find the mail sent to one address"
        label="Recipient"
        name="recipient"
        type="email"
        placeholder="name@example.com"
        searching={recipient !== undefined}
        rule={searchedAddress}
        onFind={(next) => {
          setRecipient(next)
          void navigate({ search: atPage(1) })
        }}
      />
      <PagedList
        query={outbox}
        loading="Loading the outbox…"
        failed="Could not load the outbox"
        empty={recipient ? `No messages to ${recipient}` : 'No messages'}
        onPage={(next) => void navigate({ search: atPage(next) })}
      >
        {(data) => (
          // Stacked on a phone: five columns do not fit 390 px, and View, the last, went out of sight.
          <AdminTable stacked columns={['When', 'To', 'Subject', 'Status', 'Actions']}>
            {data.items.map((mail) => (
              <tr key={mail.id} data-testid="outbox-row">
                <td data-label="When">{formatDate(mail.createdAt, 'mediumTime')}</td>
                <td data-label="To" className={css({ overflowWrap: 'anywhere' })}>
                  {mail.to}
                </td>
                <td data-label="Subject">{mail.subject}</td>
                <td data-label="Status">
                  <span className={badge({ tone: TONE[mail.status] })}>{LABEL[mail.status]}</span>
                  {mail.status === 'failed' || (mail.status === 'pending' && mail.lastError) ? (
                    <p className={css({ fontSize: 'xs', color: 'fg.muted', mt: '1', maxW: '72' })}>
                      {mail.attempts} {mail.attempts === 1 ? 'attempt' : 'attempts'}
                      {mail.lastError ? `: ${mail.lastError}` : ''}
                    </p>
                  ) : null}
                </td>
                <td>
                  <div className={css({ display: 'flex', gap: '1' })}>
                    <button
                      type="button"
                      className={button({ variant: 'outline', size: 'sm' })}
                      onClick={() => setViewing(mail.id)}
                      aria-label={`View message to ${mail.to}: ${mail.subject}`}
                    >
                      View
                    </button>
                    {mail.status === 'failed' ? (
                      <button
                        type="button"
                        className={button({ size: 'sm' })}
                        {...whilePending(resend.isPending, 'onClick', () => resend.mutate({ id: mail.id }))}
                      >
                        Resend
                      </button>
                    ) : null}
                  </div>
                </td>
              </tr>
            ))}
          </AdminTable>
        )}
      </PagedList>
      <MessageDialog id={viewing} onClose={() => setViewing(null)} />
    </>
  )
}

function MessageDialog({ id, onClose }: { id: string | null; onClose: () => void }) {
  const { trpc } = Route.useRouteContext()
  const message = useQuery({ ...trpc.admin.outbox.message.queryOptions({ id: id ?? '' }), enabled: id !== null })
  return (
    <AdminDialog
      open={id !== null}
      onOpenChange={(open) => (open ? undefined : onClose())}
      title={message.data?.subject ?? 'Message'}
      description={message.data ? `To ${message.data.to}` : undefined}
      wide
      footer={
        <button type="button" className={button({ variant: 'outline' })} onClick={onClose}>
          Close
        </button>
      }
    >
      {message.isPending ? (
        <LoadingState label="Loading the message…" />
      ) : message.isError ? (
        <p role="alert" className={errorText}>
          Could not load the message.
        </p>
      ) : (
        <pre
          data-testid="outbox-body"
          className={css({
            whiteSpace: 'pre-wrap',
            wordBreak: 'break-word',
            fontFamily: 'mono',
            fontSize: 'sm',
            bg: 'canvas',
            p: '4',
            borderRadius: 'control',
            maxH: '96',
            overflow: 'auto',
          })}
        >
          <Linked text={message.data.text} />
        </pre>
      )}
    </AdminDialog>
  )
}

/** The body with its http(s) links clickable (verification and invitation links are meant to be opened). */
function Linked({ text }: { text: string }) {
  let offset = 0
  return text.split(/(https?:\/\/[^\s<>"]+)/g).map((part, index) => {
    const at = offset // where the part starts in the text: a stable key
    offset += part.length
    if (index % 2 === 0) return part
    return (
      <a
        key={at}
        href={part}
        target="_blank"
        rel="noreferrer noopener"
        className={css({ color: 'accent', textDecoration: 'underline' })}
      >
        {part}
      </a>
    )
  })
}
