// One service order for staff: the brief and its files, deliveries, the thread with internal notes, the status
// history, the assignee picker (admins) and the actions its status allows (start, deliver, reopen, cancel with a
// refund of its line). A recurring order lists its paid months and is delivered a monthly report at a time.
// The server checks every role and status again.

import { useMutation, useSuspenseQuery } from '@tanstack/react-query'
import { createFileRoute, Link } from '@tanstack/react-router'
import { useId, useState } from 'react'
import { AdminNotFound } from '#client/components/admin/AdminNotFound.tsx'
import { ConfirmDialog } from '#client/components/admin/ConfirmDialog.tsx'
import { CustomerLink } from '#client/components/admin/CustomerLink.tsx'
import { detailSection, inputClass, pageHead, pageTitle } from '#client/components/admin/styles.ts'
import { useRefreshAdmin, useStaff } from '#client/components/admin/use-staff.ts'
import { BriefView } from '#client/components/service-orders/BriefForm.tsx'
import { AttachedFiles, FileLinks, type OrderFile } from '#client/components/service-orders/files.tsx'
import { formatDue, Periods, ServiceOrderStatusBadge } from '#client/components/service-orders/status.tsx'
import { newestFromOtherSide, Thread } from '#client/components/service-orders/Thread.tsx'
import { button } from '#client/components/ui/button.ts'
import { useFieldErrors } from '#client/components/ui/field-errors.tsx'
import {
  CheckboxField,
  messageArea,
  Options,
  TextAreaField,
  TextField,
  useActOnChoice,
} from '#client/components/ui/form.tsx'
import { routeError } from '#client/components/ui/RouteError.tsx'
import { LoadingState } from '#client/components/ui/states.tsx'
import { notify, notifyError, toastOutcome } from '#client/components/ui/toaster.tsx'
import { notFoundIfMissing } from '#client/lib/errors.ts'
import { pageHeading, useFocusWhenLost } from '#client/lib/focus.ts'
import { SCRIPT_ONLY_FORM } from '#client/lib/native-form.ts'
import { useMarkRead } from '#client/lib/use-mark-read.ts'
import { submitWhilePending, whilePending } from '#client/lib/while-pending.ts'
import { formatDate } from '#shared/dates.ts'
import { assignableMembers, SERVICE_ORDER_STATUS_LABELS } from '#shared/service-orders.ts'
import { css } from '#styled-system/css'

export const Route = createFileRoute('/admin/_staff/service-orders_/$id')({
  head: () => ({ meta: [{ title: 'Service order | SkillForge Admin' }] }),
  // An address that names no order (a mangled link, an unknown id) is the admin not-found page, not an error with
  // Try Again and the id's format rule.
  loader: ({ context, params }) =>
    Promise.all([
      context.queryClient
        .ensureQueryData(context.trpc.admin.serviceOrders.detail.queryOptions({ id: params.id }))
        .catch(notFoundIfMissing),
      context.queryClient.prefetchQuery(context.trpc.admin.team.list.queryOptions()),
    ]),
  pendingComponent: () => <LoadingState label="Loading the service order…" />,
  errorComponent: routeError('Could not load this service order'),
  notFoundComponent: AdminNotFound,
  component: ServiceOrderDetail,
})

const heading = css({ fontWeight: 'semibold' })

function ServiceOrderDetail() {
  const { trpc } = Route.useRouteContext()
  const { id } = Route.useParams()
  const { can } = useStaff()
  const { data: order } = useSuspenseQuery(trpc.admin.serviceOrders.detail.queryOptions({ id }))
  // Shown, so read for this staff member: the work queue's unread counts follow (a hovered link, which loads this
  // page's data, marks nothing).
  useMarkRead(
    trpc.admin.serviceOrders.markRead.mutationOptions(),
    { id },
    newestFromOtherSide(order.messages, 'staff'),
    [trpc.admin.serviceOrders.list.pathKey()],
  )
  const refresh = useRefreshAdmin()
  const done = (message: string) => toastOutcome(message, refresh)
  const start = useMutation(trpc.admin.serviceOrders.start.mutationOptions(done('Work started')))
  const reopen = useMutation(
    trpc.admin.serviceOrders.reopenBrief.mutationOptions(done('Brief reopened for the customer')),
  )
  const send = useMutation(
    trpc.admin.serviceOrders.sendMessage.mutationOptions({ onSuccess: refresh, onError: (e) => notifyError(e) }),
  )
  const [confirmCancel, setConfirmCancel] = useState(false)
  const live = order.status !== 'completed' && order.status !== 'cancelled'
  // Start work, Deliver, Reopen brief… take their button away with the status they change: focus goes to the heading.
  useFocusWhenLost(order.status, pageHeading)
  const may = (action: string) => order.actions.includes(action as never)

  return (
    <>
      <div className={pageHead}>
        <div>
          <Link to="/admin/service-orders" className={css({ color: 'accent', fontSize: 'sm' })}>
            ← Service orders
          </Link>
          <h1 className={pageTitle}>{order.title}</h1>
          <p className={css({ fontSize: 'sm', color: 'fg.muted' })}>
            <ServiceOrderStatusBadge status={order.status} /> · Due {formatDue(order.dueAt)} · Order{' '}
            {order.orderReference} · {order.buyer?.name}
            {order.buyer ? (
              <>
                {' '}
                (<CustomerLink email={order.buyer.email} />)
              </>
            ) : null}{' '}
            · Revisions {order.revisionsUsed}/{order.revisionsAllowed}
          </p>
          {order.paymentGivenBack ? (
            <p
              role="note"
              data-testid="payment-given-back"
              className={css({ fontSize: 'sm', fontWeight: 'semibold', color: 'danger', mt: '1' })}
            >
              {givenBackLine(order.paymentGivenBack, order.status)}
            </p>
          ) : null}
          {order.paymentDisputed ? (
            <p
              role="note"
              data-testid="payment-disputed"
              className={css({ fontSize: 'sm', fontWeight: 'semibold', color: 'danger', mt: '1' })}
            >
              The buyer’s bank is disputing this payment: hold the work until the dispute is decided (see order{' '}
              {order.orderReference}).
            </p>
          ) : null}
        </div>
        <div className={css({ display: 'flex', gap: '2', flexWrap: 'wrap' })}>
          {can('editor') && may('start') ? (
            <button
              type="button"
              className={button()}
              {...whilePending(start.isPending, 'onClick', () => start.mutate({ id }))}
            >
              Start work
            </button>
          ) : null}
          {can('editor') && may('reopenBrief') ? (
            <button
              type="button"
              className={button({ variant: 'outline' })}
              {...whilePending(reopen.isPending, 'onClick', () => reopen.mutate({ id }))}
            >
              Reopen brief
            </button>
          ) : null}
          {can('admin') && may('cancel') ? (
            <button type="button" className={button({ variant: 'danger' })} onClick={() => setConfirmCancel(true)}>
              Cancel order
            </button>
          ) : null}
        </div>
      </div>
      {confirmCancel ? (
        <CancelDialog
          id={id}
          monthInProgress={order.recurring ? (order.periods.at(-1)?.number ?? null) : null}
          manual={order.paymentMethod === 'paypal' || order.paymentMethod === 'bank_transfer'}
          free={order.paymentMethod === 'free'}
          onClose={() => setConfirmCancel(false)}
          onDone={refresh}
        />
      ) : null}
      <div
        className={css({
          display: 'grid',
          gridTemplateColumns: { base: 'minmax(0, 1fr)', lg: 'minmax(0, 2fr) minmax(0, 1fr)' },
          gap: '4',
        })}
      >
        <div className={css({ display: 'flex', flexDir: 'column', gap: '4' })}>
          <section className={detailSection} aria-labelledby="brief-title">
            <h2 id="brief-title" className={heading}>
              Brief {order.briefSubmittedAt ? '' : '(not submitted yet)'}
            </h2>
            <BriefView form={order.intakeForm} brief={order.brief} />
            <FileLinks files={order.briefFiles} />
          </section>
          {order.recurring ? (
            <section className={detailSection} aria-labelledby="months-title">
              <h2 id="months-title" className={heading}>
                Paid months
              </h2>
              <Periods periods={order.periods} endsAt={live ? order.endsAt : null} />
            </section>
          ) : null}
          <section className={detailSection} aria-labelledby="deliveries-title">
            <h2 id="deliveries-title" className={heading}>
              Deliveries
            </h2>
            {order.deliveries.length === 0 ? (
              <p className={css({ color: 'fg.muted', fontSize: 'sm' })}>None yet.</p>
            ) : null}
            {order.deliveries.map((delivery, index) => (
              <div key={delivery.id}>
                <p className={css({ fontSize: 'sm', color: 'fg.muted' })}>
                  {delivery.periodNumber ? `Report for month ${delivery.periodNumber}` : `Delivery ${index + 1}`} ·{' '}
                  {formatDate(delivery.createdAt, 'mediumTime')}
                </p>
                <p className={css({ whiteSpace: 'pre-wrap' })}>{delivery.note}</p>
                <FileLinks files={delivery.files} />
              </div>
            ))}
            {can('editor') && may('deliver') ? <DeliverForm id={id} onDone={refresh} /> : null}
            {can('editor') && may('deliverReport') ? (
              <DeliverForm
                id={id}
                onDone={refresh}
                report={order.periods.find((period) => !period.deliveredAt)?.number ?? null}
              />
            ) : null}
          </section>
          <section className={detailSection} aria-labelledby="thread-title">
            <h2 id="thread-title" className={heading}>
              Messages and notes
            </h2>
            <Thread
              orderId={id}
              messages={order.messages}
              viewer="staff"
              canPost={can('editor')}
              sending={send.isPending}
              onSend={(message) => send.mutateAsync({ id, ...message })}
            />
          </section>
        </div>
        <div className={css({ display: 'flex', flexDir: 'column', gap: '4' })}>
          <AssigneePicker id={id} assigneeId={order.assigneeId} editable={can('admin')} onDone={refresh} />
          <section className={detailSection} aria-labelledby="history-title">
            <h2 id="history-title" className={heading}>
              Status history
            </h2>
            <ol className={css({ fontSize: 'sm', display: 'flex', flexDir: 'column', gap: '1' })} data-testid="history">
              {order.history.map((event) => (
                <li key={event.id}>
                  {formatDate(event.at, 'mediumTime')}: {SERVICE_ORDER_STATUS_LABELS[event.to]}
                  {event.by ? ` by ${event.by}` : ''}
                </li>
              ))}
            </ol>
          </section>
        </div>
      </div>
    </>
  )
}

/**
 * The payment for this service was given back (decision 0132): an unfinished order was cancelled with it, a completed
 * one keeps its status; either way nobody works it for nothing.
 */
function givenBackLine(given: { at: string; byDispute: boolean }, status: string) {
  const what = given.byDispute ? 'Payment taken back by the bank (dispute lost)' : 'Payment refunded'
  const then = status === 'completed' ? ', after the order was completed' : ''
  return `${what} on ${formatDate(given.at)}${then}.`
}

function AssigneePicker({
  id,
  assigneeId,
  editable,
  onDone,
}: {
  id: string
  assigneeId: string | null
  editable: boolean
  onDone: () => Promise<void>
}) {
  const { trpc } = Route.useRouteContext()
  const fieldId = useId()
  const { data: team } = useSuspenseQuery(trpc.admin.team.list.queryOptions())
  const assign = useMutation(trpc.admin.serviceOrders.assign.mutationOptions(toastOutcome('Assignee updated', onDone)))
  const choice = useActOnChoice(
    assigneeId ?? '',
    (chosen) => assign.mutate({ id, assigneeId: chosen || null }),
    assign.isPending,
  )
  return (
    <section className={detailSection}>
      <label htmlFor={fieldId} className={heading}>
        Assignee
      </label>
      <select id={fieldId} className={inputClass} disabled={!editable} {...choice}>
        <option value="">Unassigned</option>
        <Options items={assignableMembers(team)} value={(member) => member.id} label={(member) => member.name} />
      </select>
    </section>
  )
}

/** The deliverables; `report`: the monthly report of that month of a recurring order. */
function DeliverForm({ id, onDone, report }: { id: string; onDone: () => Promise<void>; report?: number | null }) {
  const { trpc } = Route.useRouteContext()
  const [note, setNote] = useState('')
  const [files, setFiles] = useState<OrderFile[]>([])
  const settle = toastOutcome(report ? `Report for month ${report} delivered` : 'Delivered to the customer', () => {
    setNote('')
    setFiles([])
    return onDone()
  })
  const single = useMutation(trpc.admin.serviceOrders.deliver.mutationOptions(settle))
  const monthly = useMutation(trpc.admin.serviceOrders.deliverReport.mutationOptions(settle))
  const deliver = report ? monthly : single
  return (
    <form
      {...SCRIPT_ONLY_FORM}
      className={css({
        display: 'flex',
        flexDir: 'column',
        gap: '2',
        borderTopWidth: '1px',
        borderColor: 'line',
        pt: '3',
      })}
      onSubmit={(event) => {
        event.preventDefault()
        deliver.mutate({ id, note, fileIds: files.map((f) => f.id) })
      }}
    >
      <TextAreaField
        label={report ? `Report for month ${report}` : 'Delivery note'}
        className={css({ display: 'flex', flexDir: 'column', gap: '2' })}
        controlClassName={messageArea}
        value={note}
        onChange={(e) => setNote(e.target.value)}
      />
      <AttachedFiles orderId={id} purpose="delivery" label="Attach deliverables" files={files} setFiles={setFiles} />
      <div>
        <button
          type="submit"
          className={button()}
          {...submitWhilePending(deliver.isPending || (!note.trim() && files.length === 0))}
        >
          {report ? 'Deliver report' : 'Deliver'}
        </button>
      </div>
    </form>
  )
}

/**
 * Cancel, refunding the order's line for this service by default (the refunds flow: credit note, e-mail, audit); a
 * recurring order refunds its month in progress (the server picks it: the order's line for the first month, else the
 * Stripe invoice that paid it). A PayPal or bank payment needs the refund's reference; a recurring order's
 * subscription ends at Stripe at once.
 */
function CancelDialog({
  id,
  monthInProgress,
  manual,
  free,
  onClose,
  onDone,
}: {
  id: string
  /** A recurring order: the number of its latest paid month (null for a one-off order, or before any is paid). */
  monthInProgress: number | null
  /** Paid by PayPal or bank transfer: the refund needs its reference. */
  manual: boolean
  /** Nothing was paid (a 100% coupon): nothing to refund, so no refund to choose. */
  free: boolean
  onClose: () => void
  onDone: () => Promise<void>
}) {
  const { trpc } = Route.useRouteContext()
  const [refund, setRefund] = useState(!free)
  const [reference, setReference] = useState('')
  const fields = useFieldErrors<'reference'>()
  const cancel = useMutation(
    trpc.admin.serviceOrders.cancel.mutationOptions({
      onSuccess: async (result) => {
        notify(
          'success',
          result.refund
            ? `Service order cancelled and ${'month' in result.refund ? `month ${result.refund.month}` : 'its payment'} refunded (credit note ${result.refund.creditNoteNumber ?? '—'})`
            : 'Service order cancelled, nothing refunded',
        )
        onClose()
        await onDone()
      },
      // A refusal about the reference is shown under it; anything else is a toast.
      onError: (e) => {
        if (!fields.fromError(e, ['reference'])) {
          fields.clear()
          notifyError(e)
        }
      },
    }),
  )
  const needsReference = refund && manual && !reference.trim()
  return (
    <ConfirmDialog
      open
      title="Cancel this service order?"
      description={
        monthInProgress !== null
          ? 'The customer is told by e-mail and the monthly subscription ends now. Months before the one in progress are not refunded here.'
          : 'The customer is told by e-mail.'
      }
      cancelLabel="Keep order"
      confirmLabel="Cancel order"
      pendingLabel="Cancelling…"
      pending={cancel.isPending}
      disabled={needsReference}
      onConfirm={() => cancel.mutate({ id, refund, reference: reference.trim() || undefined })}
      onCancel={onClose}
    >
      {free ? null : (
        <form
          {...SCRIPT_ONLY_FORM}
          ref={fields.formRef}
          // Enter in the reference field does not cancel the order: only the footer's button does.
          onSubmit={(event) => event.preventDefault()}
          className={css({ display: 'flex', flexDir: 'column', gap: '3' })}
        >
          <CheckboxField
            label={
              monthInProgress !== null
                ? `Refund the month in progress (month ${monthInProgress})`
                : 'Refund what the customer paid for this service'
            }
            checked={refund}
            onChange={(e) => setRefund(e.target.checked)}
          />
          {refund && manual ? (
            <TextField
              label="Refund reference (PayPal or bank transfer)"
              controlClassName={inputClass}
              error={fields.errors.reference}
              value={reference}
              maxLength={200}
              onChange={(e) => setReference(e.target.value)}
            />
          ) : null}
        </form>
      )}
    </ConfirmDialog>
  )
}
