import { useMutation } from '@tanstack/react-query'
import { createFileRoute, Link } from '@tanstack/react-router'
import { submitWhilePending } from '#client/lib/while-pending.ts'
import { css } from '#styled-system/css'
import { AuthCard } from '../components/auth/AuthCard.tsx'
import { button } from '../components/ui/button.ts'
import { FormAlert } from '../components/ui/form.tsx'
import { GENERIC_ERROR, refusalMessage } from '../lib/errors.ts'
import { SCRIPT_ONLY_FORM, useTokenFromAddress } from '../lib/native-form.ts'
import { optionalText, searchParams } from '../lib/search-params.ts'

const routeSearch = searchParams({ token: optionalText })

// The cart reminder's List-Unsubscribe address (issue 32): no log-in needed; one press stops the reminders.
export const Route = createFileRoute('/cart_/reminders/unsubscribe')({
  validateSearch: routeSearch,
  head: () => ({ meta: [{ title: 'Unsubscribe from cart reminders | SkillForge' }] }),
  component: UnsubscribePage,
})

function UnsubscribePage() {
  const { trpc } = Route.useRouteContext()
  const token = useTokenFromAddress(Route.useSearch().token)
  const unsubscribe = useMutation(trpc.cartReminders.unsubscribe.mutationOptions())

  return (
    <AuthCard title="Cart reminders">
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
            <p>Stop the reminder e-mails about checkouts you left?</p>
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
