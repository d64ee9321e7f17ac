// A quiz lesson's questions, settings and numbers in the studio (issue 33), under the course's tabs. The server
// answers a lesson that is not a quiz of this creator's course as not found.
import { useQuery } from '@tanstack/react-query'
import { createFileRoute, Link } from '@tanstack/react-router'
import { QuizEditor } from '#client/components/quiz/QuizEditor.tsx'
import { ErrorState, LoadingState } from '#client/components/ui/states.tsx'
import { css } from '#styled-system/css'

export const Route = createFileRoute('/studio/courses/$courseId/quizzes/$lessonId')({
  head: () => ({ meta: [{ title: 'Quiz | Studio | SkillForge' }] }),
  component: StudioQuiz,
})

function StudioQuiz() {
  const { trpc } = Route.useRouteContext()
  const params = Route.useParams()
  const quiz = useQuery(trpc.quizzes.editor.queryOptions(params, { staleTime: 0 }))
  return (
    <section aria-labelledby="quiz-title" className={css({ display: 'grid', gap: '4' })}>
      <Link
        to="/studio/courses/$courseId/curriculum"
        params={{ courseId: params.courseId }}
        className={css({ fontSize: 'sm', color: 'fg.muted', textDecoration: 'underline' })}
      >
        ← Curriculum
      </Link>
      <h2 id="quiz-title" className={css({ fontSize: 'xl', fontWeight: 'bold' })}>
        Quiz: {quiz.data?.title ?? '…'}
      </h2>
      {quiz.isPending ? (
        <LoadingState label="Loading the quiz…" />
      ) : quiz.isError ? (
        <ErrorState title="Could not load the quiz" error={quiz.error} onRetry={() => quiz.refetch()} />
      ) : (
        <QuizEditor courseId={params.courseId} lessonId={params.lessonId} />
      )}
    </section>
  )
}
