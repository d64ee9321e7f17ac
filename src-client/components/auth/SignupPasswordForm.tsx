// A verification link opened away from the browser that signed up (decision 0134): the address is confirmed with the
// password chosen at sign-up, so the owner of an address who clicks a stranger's sign-up mail gives them nothing.
// Posts to the verify page before the script runs; after, the page's own mutation sends it.
import { Link } from '@tanstack/react-router'
import type { FormEvent } from 'react'
import { submitWhilePending } from '#client/lib/while-pending.ts'
import { AUTH_MESSAGES } from '#shared/auth.ts'
import { css } from '#styled-system/css'
import { button } from '../ui/button.ts'
import { FormAlert, PasswordField } from '../ui/form.tsx'
import { authLink } from './AuthCard.tsx'
import { VerifyPageForm } from './VerifyPageForm.tsx'

/** True for the two answers that ask for the sign-up's password instead of verifying. */
export function asksForSignupPassword(message: string | undefined) {
  return message === AUTH_MESSAGES.signupPasswordNeeded || message === AUTH_MESSAGES.signupPasswordWrong
}

export function SignupPasswordForm({
  token,
  message,
  pending,
  onConfirm,
}: {
  token: string
  /** The server's answer: the password is needed, or the one typed is not the sign-up's. */
  message: string
  pending: boolean
  /** Sends the password once the page's script runs; before that the browser posts the form. */
  onConfirm?: (password: string) => void
}) {
  function onSubmit(event: FormEvent<HTMLFormElement>) {
    if (!onConfirm) return
    event.preventDefault()
    onConfirm(String(new FormData(event.currentTarget).get('password') ?? ''))
  }
  const wrong = message === AUTH_MESSAGES.signupPasswordWrong
  return (
    <VerifyPageForm onSubmit={onSubmit}>
      {wrong ? <FormAlert takeFocus>{message}</FormAlert> : <p>{message}</p>}
      <input type="hidden" name="token" value={token} />
      <PasswordField label="Password" name="password" autoComplete="current-password" required />
      <button type="submit" className={button({ size: 'lg' })} {...submitWhilePending(pending)}>
        {pending ? 'Confirming…' : 'Confirm my email'}
      </button>
      <p className={css({ fontSize: 'sm', color: 'fg.muted' })}>
        Forgot it?{' '}
        {/* A reset link proves the mailbox too: the address is confirmed with the new password (auth/accounts.ts). */}
        <Link to="/forgot-password" className={authLink}>
          Reset your password
        </Link>
        . Did not sign up? Ignore the e-mail: nothing changes until the password is confirmed.
      </p>
    </VerifyPageForm>
  )
}
