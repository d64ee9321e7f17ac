// The customer page's Notes part (decision 0161): what support agreed with or learned about the customer, for the next
// agent who answers them. Every role reads the notes; editors and up add one; a note is deleted by its author or an
// admin. The customer receives them in their data export, so a note says only what may be said to them.
import { useMutation } from '@tanstack/react-query'
import { type Customer, useShowCustomerChange } from '#client/components/admin/customer-page.ts'
import { useStaff, useTRPC } from '#client/components/admin/use-staff.ts'
import { button } from '#client/components/ui/button.ts'
import { useSubmitForm } from '#client/components/ui/field-errors.tsx'
import { FormAlert, messageArea, TextAreaField } from '#client/components/ui/form.tsx'
import { notify, notifyError } from '#client/components/ui/toaster.tsx'
import { SCRIPT_ONLY_FORM } from '#client/lib/native-form.ts'
import { submitWhilePending, whilePending } from '#client/lib/while-pending.ts'
import { formatDate } from '#shared/dates.ts'
import { customerNoteInput } from '#shared/schemas/admin.ts'
import { css } from '#styled-system/css'

const muted = css({ fontSize: 'sm', color: 'fg.muted' })

export function CustomerNotes({ customer }: { customer: Customer }) {
  const { me, can } = useStaff()
  const trpc = useTRPC()
  const { account, notes } = customer
  const showChange = useShowCustomerChange(account.id)
  const show = (next: Customer['notes']) => showChange((old) => ({ ...old, notes: next }))
  const add = useMutation(trpc.admin.customers.addNote.mutationOptions())
  const remove = useMutation(
    trpc.admin.customers.deleteNote.mutationOptions({
      onSuccess: (result) => {
        show(result.notes)
        notify('success', 'Note deleted')
      },
      onError: (error) => notifyError(error, 'Could not delete the note'),
    }),
  )
  const { errors, formError, formProps } = useSubmitForm({
    fields: ['body'],
    schema: customerNoteInput,
    read: (form) => ({ customerId: account.id, body: form.get('body') }),
    send: async (input, form) => {
      const result = await add.mutateAsync(input)
      form.reset()
      show(result.notes)
    },
    done: 'Note added',
  })

  return (
    <div className={css({ display: 'grid', gap: '4' })}>
      {notes.length === 0 ? (
        <p className={muted}>No notes yet.</p>
      ) : (
        <ul aria-label="Notes about this customer" className={css({ display: 'grid', gap: '3' })}>
          {notes.map((note) => (
            <li
              key={note.id}
              data-testid="customer-note"
              className={css({ borderLeftWidth: '3px', borderColor: 'line', pl: '3', display: 'grid', gap: '1' })}
            >
              <p className={css({ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere', fontSize: 'sm' })}>{note.body}</p>
              <p className={muted}>
                {note.authorEmail ?? 'A former staff member'} · {formatDate(note.createdAt, 'mediumTime')}
                {note.authorId === me.id || can('admin') ? (
                  <>
                    {' · '}
                    <button
                      type="button"
                      aria-label={`Delete the note of ${formatDate(note.createdAt, 'mediumTime')}`}
                      className={button({ variant: 'ghost', size: 'sm' })}
                      {...whilePending(remove.isPending, 'onClick', () => remove.mutate({ noteId: note.id }))}
                    >
                      Delete
                    </button>
                  </>
                ) : null}
              </p>
            </li>
          ))}
        </ul>
      )}
      {can('editor') ? (
        <form
          {...SCRIPT_ONLY_FORM}
          {...formProps}
          aria-label="Add a note"
          className={css({ display: 'grid', gap: '2', maxW: 'xl' })}
        >
          <FormAlert>{formError}</FormAlert>
          <TextAreaField
            label="New note"
            name="body"
            hint="The customer receives their notes if they ask for their data: write only what may be said to them."
            className={css({ display: 'flex', flexDir: 'column', gap: '2' })}
            controlClassName={messageArea}
            maxLength={2000}
            error={errors.body}
          />
          <div>
            <button type="submit" className={button({ variant: 'outline' })} {...submitWhilePending(add.isPending)}>
              {add.isPending ? 'Adding…' : 'Add note'}
            </button>
          </div>
        </form>
      ) : null}
    </div>
  )
}
