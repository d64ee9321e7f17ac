// A quiz lesson's questions, settings and numbers for staff (editor and up; issue 33), reached from the course
// editor's lesson dialog. The same editor as the studio's.
import { createFileRoute, Link } from '@tanstack/react-router'
import { pageHead, pageTitle } from '#client/components/admin/styles.ts'
import { QuizEditor } from '#client/components/quiz/QuizEditor.tsx'
import { css } from '#styled-system/css'

export const Route = createFileRoute('/admin/_staff/quizzes/$courseId/$lessonId')({
  head: () => ({ meta: [{ title: 'Quiz | SkillForge Admin' }] }),
  component: StaffQuiz,
})

function StaffQuiz() {
  const params = Route.useParams()
  return (
    <div className={css({ display: 'grid', gap: '4' })}>
      <div className={pageHead}>
        <h1 className={pageTitle}>Quiz</h1>
        <Link to="/admin/courses" className={css({ fontSize: 'sm', textDecoration: 'underline' })}>
          ← Courses
        </Link>
      </div>
      <QuizEditor courseId={params.courseId} lessonId={params.lessonId} />
    </div>
  )
}
