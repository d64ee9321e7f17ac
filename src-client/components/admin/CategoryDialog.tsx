// 'Add New Category' and edit dialog; the server validates (name required, unique).
import { useMutation } from '@tanstack/react-query'
import { useEffect, useState } from 'react'
import { useFieldErrors } from '../ui/field-errors.tsx'
import { TextAreaField, TextField } from '../ui/form.tsx'
import { AddEditDialog } from './DialogForm.tsx'
import { useSavedThenClose, useTRPC } from './use-staff.ts'

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
  const [name, setName] = useState('')
  const [description, setDescription] = useState('')
  const fields = useFieldErrors<'name' | 'description'>()
  const { clear } = fields
  useEffect(() => {
    if (!open) return
    setName(category?.name ?? '')
    setDescription(category?.description ?? '')
    clear()
  }, [open, category, clear])

  const done = useSavedThenClose(onClose)
  // Validation (a missing or taken name) is the server's: its message goes under the field, which takes focus.
  const onError = (failure: unknown) => fields.fromError(failure, ['name', 'description'])
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
    <AddEditDialog
      open={open}
      onClose={onClose}
      noun="Category"
      editing={category !== null}
      addDescription="Create a new category for organizing courses."
      fields={fields}
      pending={pending}
      onSubmit={save}
    >
      <TextField
        label="Name *"
        error={fields.errors.name}
        value={name}
        onChange={(event) => setName(event.target.value)}
      />
      <TextAreaField
        label="Description"
        error={fields.errors.description}
        value={description}
        onChange={(event) => setDescription(event.target.value)}
      />
    </AddEditDialog>
  )
}
