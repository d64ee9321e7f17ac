import { useMutation } from '@tanstack/react-query'
import { type FormEvent, useState } from 'react'
import { errorMessage } from '#client/lib/errors.ts'
import { SCRIPT_ONLY_FORM } from '#client/lib/native-form.ts'
import { useTRPC } from '#client/lib/use-trpc.ts'
import { submitWhilePending } from '#client/lib/while-pending.ts'
import { changePasswordInput } from '#shared/schemas/auth.ts'
import { css } from '#styled-system/css'
import { usePasswordSite } from '../auth/HandedSignIn.tsx'
import { button } from '../ui/button.ts'
import { FormAlert, PasswordField } from '../ui/form.tsx'
import { notify } from '../ui/toaster.tsx'
import { SectionCard } from './SectionCard.tsx'

/** Password change; the server ends every other session of the account. */
export function ChangePasswordSection() {
  const passwordSite = usePasswordSite()
  // On a school's own domain no password is typed (decision 0063): it is changed on the platform's security page.
  if (passwordSite) {
    return (
      <SectionCard title="Password" description="Your password is changed on our secure sign-in site.">
        <a href={`${passwordSite}/account/security`} className={button({ variant: 'outline' })}>
          Change your password there
        </a>
      </SectionCard>
    )
  }
  return <PasswordForm />
}

function PasswordForm() {
  const trpc = useTRPC()
  const [error, setError] = useState<string | null>(null)
  const change = useMutation(trpc.auth.changePassword.mutationOptions())

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault()
    const formElement = event.currentTarget
    const form = new FormData(formElement)
    const parsed = changePasswordInput.safeParse({
      currentPassword: form.get('currentPassword'),
      newPassword: form.get('newPassword'),
    })
    if (!parsed.success) return setError(parsed.error.issues[0]?.message ?? 'Please check the form')
    setError(null)
    try {
      const result = await change.mutateAsync(parsed.data)
      notify('success', result.message)
      formElement.reset()
    } catch (caught) {
      setError(errorMessage(caught, 'An error occurred. Please try again.'))
    }
  }

  return (
    <SectionCard title="Password" description="Changing your password signs you out on every other device.">
      <form
        {...SCRIPT_ONLY_FORM}
        onSubmit={onSubmit}
        noValidate
        className={css({ display: 'flex', flexDir: 'column', gap: '4', maxW: 'md' })}
      >
        <FormAlert>{error}</FormAlert>
        <PasswordField label="Current password" name="currentPassword" autoComplete="current-password" />
        <PasswordField label="New password" name="newPassword" autoComplete="new-password" />
        <div>
          <button type="submit" className={button()} {...submitWhilePending(change.isPending)}>
            {change.isPending ? 'Saving...' : 'Change Password'}
          </button>
        </div>
      </form>
    </SectionCard>
  )
}
