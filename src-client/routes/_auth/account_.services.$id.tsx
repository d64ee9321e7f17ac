// One bought service for its buyer: status and due date, the brief (a form until submitted), deliveries with
// Accept delivery / Request a revision, and the message thread with the team.

import { useMutation, useQueryClient, useSuspenseQuery } from '@tanstack/react-query'
import { createFileRoute, Link } from '@tanstack/react-router'
import { useState } from 'react'
import { SectionCard } from '#client/components/account/SectionCard.tsx'
import { ConfirmDialog } from '#client/components/admin/ConfirmDialog.tsx'
import { NotFound } from '#client/components/layout/NotFound.tsx'
import { PageIntro } from '#client/components/layout/PageIntro.tsx'
import { BriefForm, BriefView } from '#client/components/service-orders/BriefForm.tsx'
import { FileLinks } from '#client/components/service-orders/files.tsx'
import { formatDue, Periods, ServiceOrderStatusBadge } from '#client/components/service-orders/status.tsx'
import { newestFromOtherSide, Thread } from '#client/components/service-orders/Thread.tsx'
import { button } from '#client/components/ui/button.ts'
import { messageArea, TextAreaField } from '#client/components/ui/form.tsx'
import { Container } from '#client/components/ui/layout.tsx'
import { routeError } from '#client/components/ui/RouteError.tsx'
import { LoadingState } from '#client/components/ui/states.tsx'
import { notify, notifyError, toastOutcome } from '#client/components/ui/toaster.tsx'
import { notFoundIfMissing } from '#client/lib/errors.ts'
import { SCRIPT_ONLY_FORM } from '#client/lib/native-form.ts'
import { useMarkRead } from '#client/lib/use-mark-read.ts'
import { submitWhilePending, whilePending } from '#client/lib/while-pending.ts'
import { formatDate } from '#shared/dates.ts'
import { css } from '#styled-system/css'

export const Route = createFileRoute('/_auth/account_/services/$id')({
  // Another buyer's order, or an address that names no order (a mangled link), is the not-found page (404), not an
  // error with Try Again and the id's format rule.
  loader: ({ context: { queryClient, trpc }, params }) =>
    queryClient.ensureQueryData(trpc.serviceOrders.detail.queryOptions({ id: params.id })).catch(notFoundIfMissing),
  head: () => ({ meta: [{ title: 'My service | SkillForge' }] }),
  pendingComponent: () => <LoadingState label="Loading your service…" />,
  errorComponent: routeError('Could not load this service'),
  notFoundComponent: NotFound,
  component: ServiceOrderPage,
})

function ServiceOrderPage() {
  const { trpc } = Route.useRouteContext()
  const { id } = Route.useParams()
  const queryClient = useQueryClient()
  const { data: order } = useSuspenseQuery(trpc.serviceOrders.detail.queryOptions({ id }))
  // Shown, so read: My services' and the account's unread counts follow (a hovered link, which loads this page's
  // data, marks nothing).
  useMarkRead(trpc.serviceOrders.markRead.mutationOptions(), { id }, newestFromOtherSide(order.messages, 'buyer'), [
    trpc.serviceOrders.mine.pathKey(),
    trpc.serviceOrders.unread.pathKey(),
  ])
  const refresh = () => queryClient.invalidateQueries({ queryKey: trpc.serviceOrders.pathKey() })
  const send = useMutation(
    trpc.serviceOrders.sendMessage.mutationOptions({ onSuccess: refresh, onError: (e) => notifyError(e) }),
  )
  const accept = useMutation(
    trpc.serviceOrders.acceptDelivery.mutationOptions(toastOutcome('Delivery accepted', refresh)),
  )
  const revisionsLeft = order.revisionsAllowed - order.revisionsUsed
  const [confirmStop, setConfirmStop] = useState(false)
  const stop = useMutation(
    trpc.serviceOrders.cancelSubscription.mutationOptions({
      onSuccess: async () => {
        notify('success', 'Subscription cancelled: the service runs to the end of the paid month')
        await refresh()
      },
      onError: (e) => notifyError(e),
      onSettled: () => setConfirmStop(false),
    }),
  )
  const live = order.status !== 'completed' && order.status !== 'cancelled'

  return (
    <main>
      <PageIntro title={order.title}>
        <p>
          <ServiceOrderStatusBadge status={order.status} /> · Due {formatDue(order.dueAt)} · Order{' '}
          {order.orderReference}
        </p>
      </PageIntro>
      <Container className={css({ py: '8', display: 'flex', flexDir: 'column', gap: '6' })}>
        <Link to="/account" hash="my-services" className={css({ color: 'accent', fontSize: 'sm' })}>
          ← My services
        </Link>
        {order.status === 'brief_needed' ? (
          <SectionCard
            title="Submit your brief"
            description={`We start when your brief is complete; it is due ${order.processingDays} business days after you submit it.`}
          >
            <BriefForm orderId={order.id} form={order.intakeForm} initial={order.brief} files={order.briefFiles} />
          </SectionCard>
        ) : (
          <SectionCard
            title="Your brief"
            description={
              order.briefSubmittedAt ? `Submitted ${formatDate(order.briefSubmittedAt, 'mediumTime')}` : undefined
            }
          >
            <BriefView form={order.intakeForm} brief={order.brief} />
            <div className={css({ mt: '3' })}>
              <FileLinks files={order.briefFiles} />
            </div>
          </SectionCard>
        )}
        {order.recurring ? (
          <SectionCard
            title="Monthly service"
            description="Each paid month gets its own report, listed under Deliveries when it is ready."
          >
            <Periods periods={order.periods} endsAt={live ? order.endsAt : null} />
            {live && !order.endsAt ? (
              <div className={css({ mt: '4' })}>
                <button
                  type="button"
                  className={button({ variant: 'outline', size: 'sm' })}
                  onClick={() => setConfirmStop(true)}
                >
                  Cancel subscription
                </button>
              </div>
            ) : null}
            <ConfirmDialog
              open={confirmStop}
              title="Cancel this monthly service?"
              description="You will not be charged again. We finish the month you have paid for, then the service ends."
              confirmLabel="Cancel subscription"
              pending={stop.isPending}
              onConfirm={() => stop.mutate({ id: order.id })}
              onCancel={() => setConfirmStop(false)}
            />
          </SectionCard>
        ) : null}
        {order.deliveries.length > 0 ? (
          <SectionCard title="Deliveries">
            <ol className={css({ display: 'flex', flexDir: 'column', gap: '4' })}>
              {order.deliveries.map((delivery, index) => (
                <li key={delivery.id} data-testid="delivery">
                  <p className={css({ fontSize: 'sm', color: 'fg.muted' })}>
                    {delivery.periodNumber ? `Report for month ${delivery.periodNumber}` : `Delivery ${index + 1}`} ·{' '}
                    {formatDate(delivery.createdAt, 'mediumTime')}
                  </p>
                  {delivery.note ? <p className={css({ whiteSpace: 'pre-wrap' })}>{delivery.note}</p> : null}
                  <FileLinks files={delivery.files} />
                </li>
              ))}
            </ol>
            {order.status === 'delivered' ? (
              <div className={css({ mt: '5', display: 'flex', flexDir: 'column', gap: '4' })}>
                <div>
                  <button
                    type="button"
                    className={button()}
                    {...whilePending(accept.isPending, 'onClick', () => accept.mutate({ id: order.id }))}
                  >
                    Accept delivery
                  </button>
                </div>
                {revisionsLeft > 0 ? (
                  <RevisionForm id={order.id} left={revisionsLeft} onDone={refresh} />
                ) : (
                  <p className={css({ fontSize: 'sm', color: 'fg.muted' })}>No revisions left on this package.</p>
                )}
              </div>
            ) : null}
          </SectionCard>
        ) : null}
        <SectionCard title="Messages">
          <Thread
            orderId={order.id}
            messages={order.messages}
            viewer="buyer"
            canPost={order.status !== 'cancelled'}
            sending={send.isPending}
            onSend={(message) => send.mutateAsync({ id: order.id, body: message.body, fileIds: message.fileIds })}
          />
        </SectionCard>
      </Container>
    </main>
  )
}

function RevisionForm({ id, left, onDone }: { id: string; left: number; onDone: () => Promise<void> }) {
  const { trpc } = Route.useRouteContext()
  const [details, setDetails] = useState('')
  const request = useMutation(
    trpc.serviceOrders.requestRevision.mutationOptions({
      onSuccess: async () => {
        notify('success', 'Revision requested')
        setDetails('')
        await onDone()
      },
      onError: (e) => notifyError(e),
    }),
  )
  return (
    <form
      {...SCRIPT_ONLY_FORM}
      className={css({ display: 'flex', flexDir: 'column', gap: '2' })}
      onSubmit={(event) => {
        event.preventDefault()
        request.mutate({ id, details })
      }}
    >
      <TextAreaField
        label={`What should we change? (${left} ${left === 1 ? 'revision' : 'revisions'} left)`}
        className={css({ display: 'flex', flexDir: 'column', gap: '2' })}
        controlClassName={messageArea}
        value={details}
        onChange={(event) => setDetails(event.target.value)}
      />
      <div>
        <button
          type="submit"
          className={button({ variant: 'outline' })}
          {...submitWhilePending(request.isPending || !details.trim())}
        >
          Request a revision
        </button>
      </div>
    </form>
  )
}
