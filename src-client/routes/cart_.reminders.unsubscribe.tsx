import { useMutation } from '@tanstack/react-query'
import { createFileRoute } from '@tanstack/react-router'
import { UnsubscribeCard } from '../components/mail/UnsubscribeCard.tsx'
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
  const unsubscribe = useMutation(trpc.cartReminders.unsubscribe.mutationOptions())
  return (
    <UnsubscribeCard
      title="Cart reminders"
      question="Stop the reminder e-mails about checkouts you left?"
      linkToken={Route.useSearch().token}
      unsubscribe={unsubscribe}
    />
  )
}
