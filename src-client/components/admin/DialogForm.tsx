// The form inside an admin dialog and the dialog's Cancel / Save footer. The Save button sits in the footer, outside
// the form, and names it with `form=`, so it submits the form and Enter in a field submits too; the server's error
// about no field shows above the fields. AddEditDialog is the whole dialog that adds a record or edits one.
import type { FormEvent, ReactNode, RefObject } from 'react'
import { SCRIPT_ONLY_FORM } from '#client/lib/native-form.ts'
import { submitWhilePending } from '#client/lib/while-pending.ts'
import { css, cx } from '#styled-system/css'
import { button } from '../ui/button.ts'
import { AdminDialog } from './AdminDialog.tsx'
import { errorText } from './styles.ts'

/** What the form needs of useFieldErrors (ui/field-errors.tsx). */
interface FormFields {
  formId: string
  formRef: RefObject<HTMLFormElement | null>
  formError: string | null
}

const column = css({ display: 'flex', flexDir: 'column', gap: '4' })

export function DialogForm({
  fields,
  className = column,
  alertClassName,
  onSubmit,
  children,
}: {
  fields: FormFields
  className?: string
  alertClassName?: string
  /** Called with the submit event, its default (a page load) already prevented. */
  onSubmit: (event: FormEvent<HTMLFormElement>) => void
  children: ReactNode
}) {
  return (
    <form
      {...SCRIPT_ONLY_FORM}
      id={fields.formId}
      ref={fields.formRef}
      noValidate
      className={className}
      onSubmit={(event) => {
        event.preventDefault()
        onSubmit(event)
      }}
    >
      {fields.formError ? (
        <p role="alert" className={cx(errorText, alertClassName)}>
          {fields.formError}
        </p>
      ) : null}
      {children}
    </form>
  )
}

/** Cancel, and the submit button of the dialog's form (`formId`), which reads `pendingLabel` while it saves. */
export function CancelSubmitFooter({
  formId,
  label,
  pendingLabel = 'Saving...',
  pending,
  disabled = pending,
  onCancel,
}: {
  formId: string
  label: string
  pendingLabel?: string
  pending: boolean
  disabled?: boolean
  onCancel: () => void
}) {
  return (
    <>
      <button type="button" className={button({ variant: 'outline' })} onClick={onCancel}>
        Cancel
      </button>
      <button type="submit" form={formId} className={button()} {...submitWhilePending(disabled)}>
        {pending ? pendingLabel : label}
      </button>
    </>
  )
}

/**
 * The dialog that adds a new record or edits one (`editing`), named by its `noun` ('Category'): its title,
 * description and Save button say which ('Add New Category', 'Edit Category'); the form (`children`, sent by
 * `onSubmit`) is laid out by `className`.
 */
export function AddEditDialog({
  open,
  onClose,
  noun,
  editing,
  addDescription,
  wide,
  fields,
  pending,
  className,
  alertClassName,
  onSubmit,
  children,
}: {
  open: boolean
  onClose: () => void
  noun: string
  editing: boolean
  /** The description while adding; editing says 'Update category information.' */
  addDescription: string
  wide?: boolean
  fields: FormFields
  pending: boolean
  className?: string
  alertClassName?: string
  onSubmit: () => void
  children: ReactNode
}) {
  return (
    <AdminDialog
      open={open}
      onOpenChange={(next) => (next ? undefined : onClose())}
      wide={wide}
      title={editing ? `Edit ${noun}` : `Add New ${noun}`}
      description={editing ? `Update ${noun.toLowerCase()} information.` : addDescription}
      footer={
        <CancelSubmitFooter
          formId={fields.formId}
          label={editing ? `Update ${noun}` : `Save ${noun}`}
          pending={pending}
          onCancel={onClose}
        />
      }
    >
      <DialogForm fields={fields} className={className} alertClassName={alertClassName} onSubmit={onSubmit}>
        {children}
      </DialogForm>
    </AdminDialog>
  )
}
