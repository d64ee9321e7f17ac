// The customer page's E-mail address part (decision 0158): a customer who can no longer read their address (a closed
// work mailbox) cannot ask on My Account, which wants a proof, so an admin starts the move for them once they have
// checked who is asking. The link still goes to the new address and the account moves only when it is opened; the old
// address is told at once. Other roles see the state only; the server checks the role and the account anyway.
import { useMutation } from '@tanstack/react-query'
import { type Customer, useShowCustomerChange } from '#client/components/admin/customer-page.ts'
import { useStaff, useTRPC } from '#client/components/admin/use-staff.ts'
import { button } from '#client/components/ui/button.ts'
import { useSubmitForm } from '#client/components/ui/field-errors.tsx'
import { FormAlert, TextField } from '#client/components/ui/form.tsx'
import { notify } from '#client/components/ui/toaster.tsx'
import { errorMessage } from '#client/lib/errors.ts'
import { SCRIPT_ONLY_FORM } from '#client/lib/native-form.ts'
import { submitWhilePending, whilePending } from '#client/lib/while-pending.ts'
import { formatDate } from '#shared/dates.ts'
import { customerEmailChangeInput } from '#shared/schemas/admin.ts'
import { css } from '#styled-system/css'

type EmailChange = Customer['emailChange']

const text = css({ fontSize: 'sm' })
const muted = css({ fontSize: 'sm', color: 'fg.muted' })

export function CustomerEmailChange({ customer }: { customer: Customer }) {
  const { can } = useStaff()
  const { account, emailChange } = customer
  const showChange = useShowCustomerChange(account.id)
  const show = (next: EmailChange) => showChange((old) => ({ ...old, emailChange: next }))

  if (emailChange.refusal) {
    return (
      <p data-testid="customer-email-refusal" className={muted}>
        {emailChange.refusal}
      </p>
    )
  }
  return (
    <div className={css({ display: 'grid', gap: '4' })}>
      {emailChange.pending ? (
        <PendingMove customerId={account.id} pending={emailChange.pending} canCancel={can('admin')} onChange={show} />
      ) : (
        <p className={muted}>No change of address waits.</p>
      )}
      {can('admin') ? <StartMove customerId={account.id} onChange={show} /> : null}
    </div>
  )
}

function PendingMove({
  customerId,
  pending,
  canCancel,
  onChange,
}: {
  customerId: string
  pending: NonNullable<EmailChange['pending']>
  canCancel: boolean
  onChange: (next: EmailChange) => void
}) {
  const trpc = useTRPC()
  const cancel = useMutation(
    trpc.admin.customers.cancelEmailChange.mutationOptions({
      onSuccess: (result) => {
        onChange(result.emailChange)
        notify('success', 'Link cancelled', result.message)
      },
      onError: (error) => notify('error', 'Could not cancel the link', errorMessage(error)),
    }),
  )
  return (
    <div data-testid="customer-email-pending" className={css({ display: 'grid', gap: '2' })}>
      <p className={text}>
        A link waits at <strong>{pending.email}</strong> until {formatDate(pending.expiresAt, 'mediumTime')}: the
        account moves there when it is opened.
      </p>
      {canCancel ? (
        <div>
          <button
            type="button"
            className={button({ variant: 'outline', size: 'sm' })}
            {...whilePending(cancel.isPending, 'onClick', () => cancel.mutate({ customerId }))}
          >
            {cancel.isPending ? 'Cancelling…' : 'Cancel this change'}
          </button>
        </div>
      ) : null}
    </div>
  )
}

function StartMove({ customerId, onChange }: { customerId: string; onChange: (next: EmailChange) => void }) {
  const trpc = useTRPC()
  const start = useMutation(trpc.admin.customers.startEmailChange.mutationOptions())
  const { errors, formError, formProps } = useSubmitForm({
    fields: ['newEmail'],
    schema: customerEmailChangeInput,
    read: (form) => ({ customerId, newEmail: form.get('newEmail') }),
    send: async (input, form) => {
      const result = await start.mutateAsync(input)
      form.reset()
      onChange(result.emailChange)
      notify('success', 'Link sent', result.message)
    },
  })
  return (
    <form
      {...SCRIPT_ONLY_FORM}
      {...formProps}
      aria-labelledby="customer-email-move"
      className={css({ display: 'grid', gap: '3', maxW: 'md' })}
    >
      <h3 id="customer-email-move" className={css({ fontWeight: 'semibold', fontSize: 'md' })}>
        Move to another address
      </h3>
      <p className={muted}>
        For a customer who can no longer read their address. Check who is asking first (an order reference, their card’s
        last four digits). A link goes to the new address, the account moves when it is opened, and the current address
        is told at once.
      </p>
      <FormAlert>{formError}</FormAlert>
      <TextField
        label="New e-mail address"
        name="newEmail"
        type="email"
        autoComplete="off"
        required
        maxLength={254}
        error={errors.newEmail}
      />
      <div>
        <button type="submit" className={button()} {...submitWhilePending(start.isPending)}>
          {start.isPending ? 'Sending…' : 'Send confirmation link'}
        </button>
      </div>
    </form>
  )
}
