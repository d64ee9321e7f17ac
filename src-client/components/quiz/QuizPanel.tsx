// The learner's quiz in the player (issue 33): the pass mark and attempts, the best score, an attempt's questions
// (their answers saved as they change, a countdown when timed, submitted at the limit), and after each attempt the
// score, pass or fail, and which answers were wrong with the explanation. The server sends no answer key before a
// submission and does all the grading; this only shows what it answers.

import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { type RefObject, useCallback, useEffect, useRef, useState } from 'react'
import { button } from '#client/components/ui/button.ts'
import { FormAlert, inputClass } from '#client/components/ui/form.tsx'
import { TitledSection } from '#client/components/ui/layout.tsx'
import { ErrorState, LoadingState } from '#client/components/ui/states.tsx'
import { notify, notifyError } from '#client/components/ui/toaster.tsx'
import { errorMessage } from '#client/lib/errors.ts'
import { useFocusWhenLost } from '#client/lib/focus.ts'
import { countOf } from '#client/lib/format.ts'
import { SCRIPT_ONLY_FORM } from '#client/lib/native-form.ts'
import type { RouterOutputs } from '#client/lib/types.ts'
import { useTRPC } from '#client/lib/use-trpc.ts'
import { formatDate } from '#shared/dates.ts'
import { css } from '#styled-system/css'

type Quiz = RouterOutputs['quizzes']['forLearner']
type OpenAttempt = NonNullable<Quiz['open']>
type Result = NonNullable<Quiz['lastResult']>
type Answer = string[] | boolean | string
type Answers = Record<string, Answer>

const box = css({ borderWidth: '1px', borderColor: 'line', borderRadius: 'card', p: { base: '4', md: '5' } })

export default function QuizPanel({ courseId, lessonId }: { courseId: string; lessonId: string }) {
  const trpc = useTRPC()
  const ref = { courseId, lessonId }
  const quiz = useQuery(trpc.quizzes.forLearner.queryOptions(ref, { staleTime: 0 }))
  const [justSubmitted, setJustSubmitted] = useState<Result | null>(null)
  // Start replaces its button by the questions, Submit the form by the result: focus follows to the first answer or
  // the score, not back to the top of the page.
  const form = useRef<HTMLFormElement>(null)
  const outcome = useRef<HTMLDivElement>(null)
  const open = quiz.data?.open
  useFocusWhenLost(quiz.data ? (open ? `open ${open.id}` : 'closed') : undefined, () =>
    open ? form.current?.querySelector<HTMLElement>('input, select, textarea') : outcome.current,
  )
  if (quiz.isPending) return <LoadingState label="Loading the quiz…" />
  if (quiz.isError)
    return <ErrorState title="Could not load the quiz" error={quiz.error} onRetry={() => quiz.refetch()} />
  const data = quiz.data
  return (
    <TitledSection id="quiz-heading" title="Quiz" className={css({ display: 'grid', gap: '5' })} data-testid="quiz">
      <QuizFacts quiz={data} />
      {data.open ? (
        <AttemptForm
          key={data.open.id}
          courseId={courseId}
          lessonId={lessonId}
          attempt={data.open}
          formRef={form}
          onSubmitted={(result) => setJustSubmitted(result)}
        />
      ) : (
        <>
          {(justSubmitted ?? data.lastResult) ? (
            <AttemptResult result={justSubmitted ?? (data.lastResult as Result)} statusRef={outcome} />
          ) : null}
          <StartAttempt quiz={data} onStarted={() => setJustSubmitted(null)} />
        </>
      )}
    </TitledSection>
  )
}

function QuizFacts({ quiz }: { quiz: Quiz }) {
  const { settings } = quiz
  return (
    <ul className={css({ display: 'flex', flexWrap: 'wrap', gap: '2', fontSize: 'sm' })} data-testid="quiz-facts">
      <li className={fact}>{countOf(settings.questionCount, 'question')}</li>
      <li className={fact}>Pass mark {settings.passPercent} %</li>
      <li className={fact}>
        {settings.maxAttempts === null
          ? 'Unlimited attempts'
          : `${quiz.attempts.length} of ${settings.maxAttempts} attempts used`}
      </li>
      {settings.timeLimitSeconds ? (
        <li className={fact}>Time limit {Math.round(settings.timeLimitSeconds / 60)} min</li>
      ) : null}
      {quiz.best ? (
        <li className={fact} data-testid="quiz-best">
          Best score {quiz.best.scorePercent} %{quiz.passed ? ' (passed)' : ''}
        </li>
      ) : null}
    </ul>
  )
}
const fact = css({ bg: 'canvas', borderRadius: 'full', px: '3', py: '1' })

function StartAttempt({ quiz, onStarted }: { quiz: Quiz; onStarted: () => void }) {
  const trpc = useTRPC()
  const queryClient = useQueryClient()
  const ref = { courseId: quiz.courseId, lessonId: quiz.lessonId }
  const start = useMutation(
    trpc.quizzes.start.mutationOptions({
      onSuccess: async () => {
        onStarted()
        await queryClient.invalidateQueries({ queryKey: trpc.quizzes.forLearner.queryKey(ref) })
      },
      onError: (error) => notifyError(error, 'Could not start the quiz'),
    }),
  )
  if (quiz.editorPreview) {
    return <p className={css({ color: 'fg.muted' })}>Preview: learners take the quiz here.</p>
  }
  if (!quiz.enrolled) {
    return <p className={css({ color: 'fg.muted' })}>Enrol in the course to take this quiz.</p>
  }
  if (quiz.settings.questionCount === 0) {
    return <p className={css({ color: 'fg.muted' })}>This quiz has no questions yet.</p>
  }
  if (!quiz.canStart) {
    return (
      <p role="status" className={css({ color: 'fg.muted' })}>
        {quiz.attemptsLeft === 0
          ? 'You have used every attempt at this quiz.'
          : quiz.availableAt
            ? `You can try again from ${formatDate(quiz.availableAt, 'mediumTime')}.`
            : 'You cannot start another attempt now.'}
      </p>
    )
  }
  return (
    <div>
      <button
        type="button"
        className={button()}
        aria-busy={start.isPending}
        onClick={() => {
          if (!start.isPending) start.mutate(ref)
        }}
      >
        {quiz.attempts.length === 0 ? 'Start quiz' : 'Try again'}
      </button>
    </div>
  )
}

function useCountdown(deadlineAt: string | null, onExpired: () => void) {
  const [left, setLeft] = useState<number | null>(null)
  const expired = useRef(false)
  useEffect(() => {
    if (!deadlineAt) return
    const tick = () => {
      const seconds = Math.max(0, Math.round((new Date(deadlineAt).getTime() - Date.now()) / 1000))
      setLeft(seconds)
      if (seconds === 0 && !expired.current) {
        expired.current = true
        onExpired()
      }
    }
    tick()
    const timer = window.setInterval(tick, 1000)
    return () => window.clearInterval(timer)
  }, [deadlineAt, onExpired])
  return left
}

function AttemptForm({
  courseId,
  lessonId,
  attempt,
  formRef,
  onSubmitted,
}: {
  courseId: string
  lessonId: string
  attempt: OpenAttempt
  formRef: RefObject<HTMLFormElement | null>
  onSubmitted: (result: Result) => void
}) {
  const trpc = useTRPC()
  const queryClient = useQueryClient()
  const ref = { courseId, lessonId }
  const [answers, setAnswers] = useState<Answers>(attempt.answers as Answers)
  const latest = useRef(answers)
  latest.current = answers
  const saveTimer = useRef<number | undefined>(undefined)
  const save = useMutation(trpc.quizzes.saveAnswers.mutationOptions())
  const submit = useMutation(
    trpc.quizzes.submit.mutationOptions({
      onSuccess: async (result) => {
        onSubmitted(result)
        if (result.courseCompleted) notify('success', 'Course completed!', 'Congratulations on finishing the course.')
        await Promise.all([
          queryClient.invalidateQueries({ queryKey: trpc.quizzes.forLearner.queryKey(ref) }),
          queryClient.invalidateQueries({ queryKey: trpc.learning.course.queryKey({ courseId }) }),
        ])
      },
    }),
  )
  // The latest submit, for the countdown's expiry (a stable callback, so the timer is not restarted each render).
  const sendLatest = useRef(() => {})
  sendLatest.current = () => {
    window.clearTimeout(saveTimer.current)
    if (!submit.isPending) submit.mutate({ ...ref, attemptId: attempt.id, answers: latest.current })
  }
  const send = useCallback(() => sendLatest.current(), [])
  const left = useCountdown(attempt.deadlineAt, send)
  const change = (questionId: string, answer: Answer) => {
    const next = { ...latest.current, [questionId]: answer }
    setAnswers(next)
    window.clearTimeout(saveTimer.current)
    saveTimer.current = window.setTimeout(() => save.mutate({ ...ref, attemptId: attempt.id, answers: next }), 600)
  }
  useEffect(() => () => window.clearTimeout(saveTimer.current), [])
  return (
    <form
      {...SCRIPT_ONLY_FORM}
      ref={formRef}
      className={css({ display: 'grid', gap: '4' })}
      aria-label="Quiz attempt"
      onSubmit={(event) => {
        event.preventDefault()
        send()
      }}
    >
      {left !== null ? (
        <p role="timer" aria-live="off" className={css({ fontWeight: 'semibold' })} data-testid="quiz-timer">
          Time left: {Math.floor(left / 60)}:{String(left % 60).padStart(2, '0')}
        </p>
      ) : null}
      <ol className={css({ display: 'grid', gap: '4' })}>
        {attempt.questions.map((question, index) => (
          <li key={question.id} className={box}>
            <QuestionInput
              question={question}
              number={index + 1}
              answer={answers[question.id]}
              onChange={(answer) => change(question.id, answer)}
            />
          </li>
        ))}
      </ol>
      {submit.isError ? <FormAlert>{errorMessage(submit.error)}</FormAlert> : null}
      <div>
        <button type="submit" className={button()} aria-busy={submit.isPending}>
          {submit.isPending ? 'Submitting…' : 'Submit answers'}
        </button>
      </div>
    </form>
  )
}

function QuestionInput({
  question,
  number,
  answer,
  onChange,
}: {
  question: OpenAttempt['questions'][number]
  number: number
  answer: Answer | undefined
  onChange: (answer: Answer) => void
}) {
  const legend = (
    <legend className={css({ fontWeight: 'semibold', mb: '2' })}>
      <span className={css({ srOnly: true })}>Question {number}: </span>
      {question.prompt}
    </legend>
  )
  const choice = css({ display: 'flex', gap: '2', alignItems: 'center', minH: '8' })
  const control = css({ w: '4', h: '4', accentColor: 'accent', flexShrink: 0 })
  const name = `question-${question.id}`
  if (question.type === 'short') {
    return (
      <div className={css({ display: 'grid', gap: '2' })}>
        <label htmlFor={name} className={css({ fontWeight: 'semibold' })}>
          <span className={css({ srOnly: true })}>Question {number}: </span>
          {question.prompt}
        </label>
        <input
          id={name}
          className={inputClass}
          maxLength={500}
          autoComplete="off"
          value={typeof answer === 'string' ? answer : ''}
          onChange={(e) => onChange(e.target.value)}
        />
      </div>
    )
  }
  if (question.type === 'true_false') {
    return (
      <fieldset className={css({ borderWidth: 0, p: 0, m: 0 })}>
        {legend}
        {[true, false].map((value) => (
          <label key={String(value)} className={choice}>
            <input
              type="radio"
              name={name}
              className={control}
              checked={answer === value}
              onChange={() => onChange(value)}
            />
            {value ? 'True' : 'False'}
          </label>
        ))}
      </fieldset>
    )
  }
  const chosen = Array.isArray(answer) ? answer : []
  return (
    <fieldset className={css({ borderWidth: 0, p: 0, m: 0 })}>
      {legend}
      {question.type === 'multiple' ? (
        <p className={css({ fontSize: 'sm', color: 'fg.muted', mb: '1' })}>Choose every answer that applies.</p>
      ) : null}
      {(question.options ?? []).map((option) => (
        <label key={option.id} className={choice}>
          <input
            type={question.type === 'single' ? 'radio' : 'checkbox'}
            name={name}
            className={control}
            checked={chosen.includes(option.id)}
            onChange={(e) =>
              onChange(
                question.type === 'single'
                  ? [option.id]
                  : e.target.checked
                    ? [...chosen, option.id]
                    : chosen.filter((id) => id !== option.id),
              )
            }
          />
          {option.text}
        </label>
      ))}
    </fieldset>
  )
}

function AttemptResult({ result, statusRef }: { result: Result; statusRef: RefObject<HTMLDivElement | null> }) {
  const wrong = result.questions.filter((question) => !question.correct)
  return (
    <div className={css({ display: 'grid', gap: '3' })} data-testid="quiz-result">
      <div
        ref={statusRef}
        role="status"
        tabIndex={-1}
        className={css({
          bg: result.passed ? 'green.50' : 'red.50',
          borderWidth: '1px',
          borderColor: result.passed ? 'green.200' : 'red.200',
          borderRadius: 'card',
          p: '4',
        })}
      >
        <p className={css({ fontWeight: 'bold', fontSize: 'lg' })}>
          {result.passed ? 'Passed' : 'Not passed'}: {result.scorePercent} %
        </p>
        <p className={css({ fontSize: 'sm' })}>
          {result.correct} of {result.total} correct; the pass mark is {result.passPercent} %.
        </p>
      </div>
      {wrong.length > 0 ? (
        <section aria-labelledby="quiz-wrong-title" className={css({ display: 'grid', gap: '2' })}>
          <h3 id="quiz-wrong-title" className={css({ fontWeight: 'semibold' })}>
            Answers to review
          </h3>
          <ul className={css({ display: 'grid', gap: '3' })}>
            {wrong.map((question) => (
              <li key={question.id} className={box} data-testid="quiz-wrong">
                <p className={css({ fontWeight: 'semibold' })}>{question.prompt}</p>
                <p className={css({ fontSize: 'sm' })}>
                  Your answer: <span className={css({ color: 'danger' })}>{question.yourAnswer}</span>
                </p>
                {question.explanation ? (
                  <p className={css({ fontSize: 'sm', mt: '1' })}>{question.explanation}</p>
                ) : null}
              </li>
            ))}
          </ul>
        </section>
      ) : null}
    </div>
  )
}
