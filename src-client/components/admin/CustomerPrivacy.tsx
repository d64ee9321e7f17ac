// The customer page's Privacy requests part (decision 0159): a customer who writes "send me my data" or "delete my
// account" is answered from here. Every role sees their newest export and whether a deletion is scheduled; admins ask
// for the export (the person is mailed when it is ready and downloads it signed in), schedule the deletion after
// reading what it takes, or cancel it. The server checks the role, the blockers and the person.
import { useMutation } from '@tanstack/react-query'
import { useState } from 'react'
import { ConfirmDialog } from '#client/components/admin/ConfirmDialog.tsx'
import { type Customer, useShowCustomerChange } from '#client/components/admin/customer-page.ts'
import { useStaff, useTRPC } from '#client/components/admin/use-staff.ts'
import { button } from '#client/components/ui/button.ts'
import { notify, notifyError } from '#client/components/ui/toaster.tsx'
import { whilePending } from '#client/lib/while-pending.ts'
import { formatDate } from '#shared/dates.ts'
import { css } from '#styled-system/css'

type Privacy = Customer['privacy']

const EXPORT_STATUS = {
  pending: 'being prepared; they are e-mailed when it is ready',
  ready: 'ready: they download it from their account’s security page',
  failed: 'failed: ask again',
  expired: 'expired',
} as const

const text = css({ fontSize: 'sm' })
const group = css({ display: 'grid', gap: '2', justifyItems: 'start' })
const subheading = css({ fontWeight: 'semibold', fontSize: 'md' })
const list = css({ listStyleType: 'disc', pl: '5', fontSize: 'sm', display: 'grid', gap: '1' })

export function CustomerPrivacy({ customer }: { customer: Customer }) {
  const { can } = useStaff()
  const trpc = useTRPC()
  const { account, privacy } = customer
  const [confirming, setConfirming] = useState(false)
  const showChange = useShowCustomerChange(account.id)
  const show = (change: Partial<Privacy>) => showChange((old) => ({ ...old, privacy: { ...old.privacy, ...change } }))
  const askExport = useMutation(
    trpc.privacy.requestExportFor.mutationOptions({
      onSuccess: (row) => {
        show({
          latestExport: { status: row.status, requestedAt: new Date(row.created_at).toISOString(), expiresAt: null },
        })
        notify('success', 'Export asked for', 'They are e-mailed when it is ready to download.')
      },
      onError: (error) => notifyError(error, 'Could not ask for the export'),
    }),
  )
  const schedule = useMutation(
    trpc.privacy.requestDeletionFor.mutationOptions({
      onSuccess: (result) => {
        setConfirming(false)
        show({ deletion: { eraseAfter: new Date(result.eraseAfter).toISOString() } })
        notify('success', 'Deletion scheduled', 'They were e-mailed, and can cancel it until then.')
      },
      onError: (error) => {
        setConfirming(false)
        notifyError(error, 'Could not schedule the deletion')
      },
    }),
  )
  const cancel = useMutation(
    trpc.privacy.cancelDeletionFor.mutationOptions({
      onSuccess: () => {
        show({ deletion: null })
        notify('success', 'Deletion cancelled', 'They were e-mailed: their account stays as it was.')
      },
      onError: (error) => notifyError(error, 'Could not cancel the deletion'),
    }),
  )
  const exportPending = privacy.latestExport?.status === 'pending'

  return (
    <div className={css({ display: 'grid', gap: '5' })}>
      <div className={group} data-testid="customer-export">
        <h3 className={subheading}>Data export</h3>
        <p className={text}>
          {privacy.latestExport
            ? `Asked ${formatDate(privacy.latestExport.requestedAt, 'medium')}: ${EXPORT_STATUS[privacy.latestExport.status]}.`
            : 'None asked for.'}
        </p>
        {can('admin') ? (
          <button
            type="button"
            className={button({ variant: 'outline', size: 'sm' })}
            {...whilePending(askExport.isPending || exportPending, 'onClick', () =>
              askExport.mutate({ userId: account.id }),
            )}
          >
            {askExport.isPending ? 'Asking…' : exportPending ? 'Being prepared…' : 'Prepare a copy of their data'}
          </button>
        ) : null}
      </div>

      <div className={group} data-testid="customer-deletion">
        <h3 className={subheading}>Account deletion</h3>
        {privacy.deletion ? (
          <>
            <p className={text}>
              Scheduled: the account is erased on {formatDate(privacy.deletion.eraseAfter)} unless it is cancelled.
            </p>
            {can('admin') ? (
              <button
                type="button"
                className={button({ variant: 'outline', size: 'sm' })}
                {...whilePending(cancel.isPending, 'onClick', () => cancel.mutate({ userId: account.id }))}
              >
                {cancel.isPending ? 'Cancelling…' : 'Cancel deletion'}
              </button>
            ) : null}
          </>
        ) : privacy.deletionBlockers.length > 0 ? (
          <>
            <p className={text}>Not scheduled, and it cannot be yet. Their security page tells them:</p>
            <ul className={list}>
              {privacy.deletionBlockers.map((blocker) => (
                <li key={blocker}>{blocker}</li>
              ))}
            </ul>
          </>
        ) : (
          <>
            <p className={text}>Not scheduled.</p>
            {can('admin') ? (
              <button
                type="button"
                className={button({ variant: 'danger', size: 'sm' })}
                onClick={() => setConfirming(true)}
              >
                Schedule deletion
              </button>
            ) : null}
          </>
        )}
      </div>

      <ConfirmDialog
        open={confirming}
        title="Schedule this account’s deletion?"
        description={`Only at ${account.email}’s own request. The account is erased after the cool-off; until then they (or we) can cancel it. They are e-mailed now.`}
        confirmLabel="Schedule deletion"
        pendingLabel="Scheduling…"
        pending={schedule.isPending}
        onCancel={() => setConfirming(false)}
        onConfirm={() => schedule.mutate({ userId: account.id })}
      >
        {privacy.deletionConsequences.length > 0 ? (
          <>
            <p className={text}>What it takes, as their security page tells them:</p>
            <ul className={list}>
              {privacy.deletionConsequences.map((consequence) => (
                <li key={consequence}>{consequence}</li>
              ))}
            </ul>
          </>
        ) : null}
      </ConfirmDialog>
    </div>
  )
}
