import { useMutation } from '@tanstack/react-query'
import { createFileRoute } from '@tanstack/react-router'
import { UnsubscribeCard } from '../components/mail/UnsubscribeCard.tsx'
import { optionalEnum, optionalText, searchParams } from '../lib/search-params.ts'

const routeSearch = searchParams({
  token: optionalText,
  // Which mails the link stops (no secret: the server names it when it sends the person here).
  list: optionalEnum(['course_news', 'question_digest']),
})

/** What the page says, by the kind of mail the link came in. */
const LISTS = {
  course_news: {
    title: 'Course news by e-mail',
    question: 'Stop the e-mails about this course’s news (new lessons opening, live sessions scheduled)?',
  },
  question_digest: {
    title: 'Daily digest of questions',
    question: 'Stop the daily e-mail of this course’s new questions?',
  },
} as const

// A course mail's unsubscribe link (decision 0156): no log-in needed; one press stops that course's mails of its kind.
export const Route = createFileRoute('/mail/unsubscribe')({
  validateSearch: routeSearch,
  head: () => ({ meta: [{ title: 'Unsubscribe | SkillForge' }] }),
  component: UnsubscribePage,
})

function UnsubscribePage() {
  const { trpc } = Route.useRouteContext()
  const unsubscribe = useMutation(trpc.profile.stopCourseMail.mutationOptions())
  const search = Route.useSearch()
  const words = LISTS[search.list ?? 'course_news']
  return (
    <UnsubscribeCard title={words.title} question={words.question} linkToken={search.token} unsubscribe={unsubscribe} />
  )
}
