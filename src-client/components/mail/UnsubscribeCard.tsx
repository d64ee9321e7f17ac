// The page a mail's unsubscribe link opens (a cart reminder's, a course news mail's): no log-in needed; one press of
// the button stops those mails. The token is taken out of the address bar and posted in the body only.
import type { UseMutationResult } from '@tanstack/react-query'
import { Link } from '@tanstack/react-router'
import { GENERIC_ERROR, refusalMessage } from '#client/lib/errors.ts'
import { SCRIPT_ONLY_FORM, useTokenFromAddress } from '#client/lib/native-form.ts'
import { submitWhilePending } from '#client/lib/while-pending.ts'
import { css } from '#styled-system/css'
import { AuthCard } from '../auth/AuthCard.tsx'
import { button } from '../ui/button.ts'
import { FormAlert } from '../ui/form.tsx'

export function UnsubscribeCard({
  title,
  question,
  linkToken,
  unsubscribe,
}: {
  title: string
  /** What the button stops, asked before it is pressed. */
  question: string
  /** The token as the page's address gave it. */
  linkToken: string | undefined
  unsubscribe: UseMutationResult<{ message: string }, unknown, { token: string }>
}) {
  const token = useTokenFromAddress(linkToken)
  return (
    <AuthCard title={title}>
      <div className={css({ display: 'grid', gap: '4' })}>
        {!token ? (
          <FormAlert>This unsubscribe link is not valid.</FormAlert>
        ) : unsubscribe.isSuccess ? (
          <FormAlert kind="success">{unsubscribe.data.message}</FormAlert>
        ) : (
          <form
            {...SCRIPT_ONLY_FORM}
            onSubmit={(event) => {
              event.preventDefault()
              unsubscribe.mutate({ token })
            }}
            className={css({ display: 'grid', gap: '4' })}
          >
            {unsubscribe.isError ? <FormAlert>{refusalMessage(unsubscribe.error, GENERIC_ERROR)}</FormAlert> : null}
            <p>{question}</p>
            <button type="submit" className={button({ size: 'lg' })} {...submitWhilePending(unsubscribe.isPending)}>
              {unsubscribe.isPending ? 'Unsubscribing…' : 'Unsubscribe'}
            </button>
          </form>
        )}
        <Link to="/" className={button({ variant: 'outline' })}>
          Back to the home page
        </Link>
      </div>
    </AuthCard>
  )
}
