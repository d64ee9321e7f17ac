// 'Add New Category' and edit dialog; the server validates (name required, unique).
import { useMutation, useQueryClient } from '@tanstack/react-query'
import { useEffect, useState } from 'react'
import { css } from '../../../styled-system/css'
import { errorMessage } from '../../lib/errors.ts'
import { button } from '../ui/button.ts'
import { notify } from '../ui/toaster.tsx'
import { AdminDialog } from './AdminDialog.tsx'
import { errorText, fieldClass, inputClass, textareaClass } from './styles.ts'
import { useTRPC } from './use-staff.ts'

export interface CategoryDraft {
  id: string
  name: string
  description: string
}

export function CategoryDialog({
  open,
  category,
  onClose,
}: {
  open: boolean
  category: CategoryDraft | null
  onClose: () => void
}) {
  const trpc = useTRPC()
  const queryClient = useQueryClient()
  const [name, setName] = useState('')
  const [description, setDescription] = useState('')
  const [error, setError] = useState<string | null>(null)
  useEffect(() => {
    if (!open) return
    setName(category?.name ?? '')
    setDescription(category?.description ?? '')
    setError(null)
  }, [open, category])

  const done = (message: string) => async () => {
    await queryClient.invalidateQueries({ queryKey: trpc.admin.pathKey() })
    notify('success', message)
    onClose()
  }
  const onError = (failure: unknown) => setError(errorMessage(failure))
  const create = useMutation(
    trpc.admin.categories.create.mutationOptions({ onSuccess: done('Category added successfully!'), onError }),
  )
  const update = useMutation(
    trpc.admin.categories.update.mutationOptions({ onSuccess: done('Category updated successfully!'), onError }),
  )
  const pending = create.isPending || update.isPending
  const save = () =>
    category ? update.mutate({ id: category.id, name, description }) : create.mutate({ name, description })

  return (
    <AdminDialog
      open={open}
      onOpenChange={(next) => (next ? undefined : onClose())}
      title={category ? 'Edit Category' : 'Add New Category'}
      description={category ? 'Update category information.' : 'Create a new category for organizing courses.'}
      footer={
        <>
          <button type="button" className={button({ variant: 'outline' })} onClick={onClose}>
            Cancel
          </button>
          <button type="button" className={button()} disabled={pending} onClick={save}>
            {pending ? 'Saving...' : category ? 'Update Category' : 'Save Category'}
          </button>
        </>
      }
    >
      <form
        className={css({ display: 'flex', flexDir: 'column', gap: '4' })}
        onSubmit={(event) => {
          event.preventDefault()
          save()
        }}
      >
        {error ? (
          <p role="alert" className={errorText}>
            {error}
          </p>
        ) : null}
        <label className={fieldClass}>
          Name *
          <input className={inputClass} value={name} onChange={(event) => setName(event.target.value)} />
        </label>
        <label className={fieldClass}>
          Description
          <textarea
            className={textareaClass}
            value={description}
            onChange={(event) => setDescription(event.target.value)}
          />
        </label>
      </form>
    </AdminDialog>
  )
}
