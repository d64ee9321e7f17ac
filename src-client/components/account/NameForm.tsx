import { useMutation, useQueryClient } from '@tanstack/react-query'
import { type FormEvent, useState } from 'react'
import { errorMessage } from '#client/lib/errors.ts'
import { SCRIPT_ONLY_FORM } from '#client/lib/native-form.ts'
import { type SessionUser, setSessionUser } from '#client/lib/session.ts'
import { useTRPC } from '#client/lib/use-trpc.ts'
import { submitWhilePending } from '#client/lib/while-pending.ts'
import { profileNameInput } from '#shared/schemas/auth.ts'
import { css } from '#styled-system/css'
import { button } from '../ui/button.ts'
import { TextField, useFocusFirstInvalid } from '../ui/form.tsx'
import { notify, notifyError } from '../ui/toaster.tsx'

export function NameForm({ user }: { user: SessionUser }) {
  const trpc = useTRPC()
  const queryClient = useQueryClient()
  const [errors, setErrors] = useState<{ firstName?: string; lastName?: string }>({})
  const formRef = useFocusFirstInvalid(errors)
  const update = useMutation(
    trpc.profile.updateName.mutationOptions({
      onSuccess: async (me) => {
        await setSessionUser(queryClient, trpc, me)
        notify('success', 'Profile updated successfully!')
      },
      onError: (error) => notifyError(error, 'Failed to update profile', errorMessage(error)),
    }),
  )

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault()
    const form = new FormData(event.currentTarget)
    const parsed = profileNameInput.safeParse({ firstName: form.get('firstName'), lastName: form.get('lastName') })
    if (!parsed.success) {
      const flat = parsed.error.flatten().fieldErrors
      return setErrors({ firstName: flat.firstName?.[0], lastName: flat.lastName?.[0] })
    }
    setErrors({})
    update.mutate(parsed.data)
  }

  return (
    <form
      {...SCRIPT_ONLY_FORM}
      ref={formRef}
      onSubmit={onSubmit}
      noValidate
      className={css({ display: 'flex', flexDir: 'column', gap: '4' })}
    >
      <div className={css({ display: 'grid', gridTemplateColumns: { base: '1fr', sm: '1fr 1fr' }, gap: '4' })}>
        <TextField
          label="First name"
          name="firstName"
          defaultValue={user.firstName}
          error={errors.firstName}
          required
        />
        <TextField label="Last name" name="lastName" defaultValue={user.lastName} error={errors.lastName} required />
      </div>
      <div>
        <button type="submit" className={button()} {...submitWhilePending(update.isPending)}>
          {update.isPending ? 'Saving...' : 'Save Changes'}
        </button>
      </div>
    </form>
  )
}
