// The customer page's Account status part (decision 0160): whether the account is suspended, since when and why, and
// where it is signed in now (decision 0162), for every role; admins suspend it (the reason is mailed to the customer,
// so the dialog asks for it and says so), lift the suspension, or sign the customer out on every device (an account
// someone else got into). The server checks the role, the account and the reason.
import { useMutation } from '@tanstack/react-query'
import { useState } from 'react'
import { ConfirmDialog } from '#client/components/admin/ConfirmDialog.tsx'
import { type Customer, useShowCustomerChange } from '#client/components/admin/customer-page.ts'
import { useStaff, useTRPC } from '#client/components/admin/use-staff.ts'
import { button } from '#client/components/ui/button.ts'
import { serverFieldErrors } from '#client/components/ui/field-errors.tsx'
import { messageArea, TextAreaField } from '#client/components/ui/form.tsx'
import { notify, notifyError } from '#client/components/ui/toaster.tsx'
import { whilePending } from '#client/lib/while-pending.ts'
import { formatDate } from '#shared/dates.ts'
import { formatMoney } from '#shared/money.ts'
import { customerSuspensionInput } from '#shared/schemas/admin.ts'
import { css } from '#styled-system/css'

const text = css({ fontSize: 'sm' })

export function CustomerSuspension({ customer }: { customer: Customer }) {
  const { can } = useStaff()
  const trpc = useTRPC()
  const { account, suspension, signIns } = customer
  const [asking, setAsking] = useState(false)
  const [reason, setReason] = useState('')
  const [reasonError, setReasonError] = useState<string>()
  const showChange = useShowCustomerChange(account.id)
  const show = (next: Customer['suspension']) => showChange((old) => ({ ...old, suspension: next }))
  const close = () => {
    setAsking(false)
    setReason('')
    setReasonError(undefined)
  }
  const suspend = useMutation(
    trpc.admin.customers.suspend.mutationOptions({
      onSuccess: (result) => {
        close()
        // Its sessions ended with it.
        showChange((old) => ({ ...old, suspension: result.suspension, signIns: { devices: 0, lastActiveAt: null } }))
        notify('success', 'Account suspended', result.message)
      },
      onError: (error) => {
        const onField = serverFieldErrors(error)?.reason
        if (onField) return setReasonError(onField)
        close()
        notifyError(error, 'Could not suspend the account')
      },
    }),
  )
  const signOut = useMutation(
    trpc.admin.customers.signOutEverywhere.mutationOptions({
      onSuccess: (result) => {
        showChange((old) => ({ ...old, signIns: result.signIns }))
        notify('success', 'Signed out everywhere', result.message)
      },
      onError: (error) => notifyError(error, 'Could not sign the customer out'),
    }),
  )
  const lift = useMutation(
    trpc.admin.customers.liftSuspension.mutationOptions({
      onSuccess: (result) => {
        show(result.suspension)
        notify('success', 'Suspension lifted', result.message)
      },
      onError: (error) => notifyError(error, 'Could not lift the suspension'),
    }),
  )

  function confirm() {
    const parsed = customerSuspensionInput.shape.reason.safeParse(reason)
    if (!parsed.success) return setReasonError(parsed.error.issues[0]?.message)
    suspend.mutate({ customerId: account.id, reason: parsed.data })
  }

  return (
    <div className={css({ display: 'grid', gap: '3', justifyItems: 'start' })} data-testid="customer-status">
      {suspension ? (
        <>
          <p className={text}>
            <strong>Suspended</strong> since {formatDate(suspension.since, 'mediumTime')}: they cannot sign in. The
            reason they were sent: “{suspension.reason}”
          </p>
          {suspension.heldEarnings.length > 0 ? (
            <p className={text} data-testid="customer-held-earnings">
              Their earnings wait and are not paid out while it lasts:{' '}
              {suspension.heldEarnings.map((held) => formatMoney(held.amountMinor, held.currency)).join(', ')}.
            </p>
          ) : null}
          {can('admin') ? (
            <button
              type="button"
              className={button({ variant: 'outline', size: 'sm' })}
              {...whilePending(lift.isPending, 'onClick', () => lift.mutate({ customerId: account.id }))}
            >
              {lift.isPending ? 'Lifting…' : 'Lift suspension'}
            </button>
          ) : null}
        </>
      ) : (
        <>
          <p className={text}>
            Active: they can sign in.{' '}
            <span data-testid="customer-sign-ins">
              {signIns.devices === 0
                ? 'Not signed in anywhere now.'
                : `Signed in on ${signIns.devices === 1 ? 'one device' : `${signIns.devices} devices`}, last active ${formatDate(signIns.lastActiveAt ?? '', 'mediumTime')}.`}
            </span>
          </p>
          {can('admin') && account.role === 'customer' ? (
            <div className={css({ display: 'flex', flexWrap: 'wrap', gap: '2' })}>
              {signIns.devices > 0 ? (
                <button
                  type="button"
                  className={button({ variant: 'outline', size: 'sm' })}
                  {...whilePending(signOut.isPending, 'onClick', () => signOut.mutate({ customerId: account.id }))}
                >
                  {signOut.isPending ? 'Signing out…' : 'Sign out everywhere'}
                </button>
              ) : null}
              <button
                type="button"
                className={button({ variant: 'danger', size: 'sm' })}
                onClick={() => setAsking(true)}
              >
                Suspend account
              </button>
            </div>
          ) : null}
        </>
      )}
      <ConfirmDialog
        open={asking}
        title="Suspend this account?"
        description="Their sessions end now and they cannot sign in until the suspension is lifted; their API keys stop; a plan that would renew is set to end at its period’s end; payouts of a creator’s earnings wait until it is lifted. What they bought stays: refund an order from Orders if that is wanted too."
        confirmLabel="Suspend account"
        pendingLabel="Suspending…"
        pending={suspend.isPending}
        onCancel={close}
        onConfirm={confirm}
      >
        <TextAreaField
          label="Reason (sent to the customer)"
          className={css({ display: 'flex', flexDir: 'column', gap: '2' })}
          controlClassName={messageArea}
          maxLength={500}
          value={reason}
          error={reasonError}
          onChange={(event) => setReason(event.target.value)}
        />
      </ConfirmDialog>
    </div>
  )
}
