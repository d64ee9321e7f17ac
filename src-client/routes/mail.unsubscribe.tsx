import { useMutation } from '@tanstack/react-query'
import { createFileRoute } from '@tanstack/react-router'
import { UnsubscribeCard } from '../components/mail/UnsubscribeCard.tsx'
import { optionalText, searchParams } from '../lib/search-params.ts'

const routeSearch = searchParams({ token: optionalText })

// A course news mail's unsubscribe link (decision 0156): no log-in needed; one press stops that course's news.
export const Route = createFileRoute('/mail/unsubscribe')({
  validateSearch: routeSearch,
  head: () => ({ meta: [{ title: 'Unsubscribe from course news | SkillForge' }] }),
  component: UnsubscribePage,
})

function UnsubscribePage() {
  const { trpc } = Route.useRouteContext()
  const unsubscribe = useMutation(trpc.profile.stopCourseNews.mutationOptions())
  return (
    <UnsubscribeCard
      title="Course news by e-mail"
      question="Stop the e-mails about this course’s news (new lessons opening, live sessions scheduled)?"
      linkToken={Route.useSearch().token}
      unsubscribe={unsubscribe}
    />
  )
}
