// A quiz lesson's editor (studio and staff): pass mark, attempts, wait, time limit, shuffling, whether completion
// needs it; the questions (single or multiple choice, true/false, short answer) each with its explanation; and the
// quiz's numbers so far. The server checks every rule again (schemas/quiz.ts) and is the only one that grades.

import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { type ChangeEvent, type FormEvent, useEffect, useId, useRef, useState } from 'react'
import { button } from '#client/components/ui/button.ts'
import { contentCard as card } from '#client/components/ui/card.ts'
import {
  CheckboxField,
  FormAlert,
  Options,
  SelectField,
  TextAreaField,
  TextField,
} from '#client/components/ui/form.tsx'
import { ErrorState, LoadingState } from '#client/components/ui/states.tsx'
import { notify } from '#client/components/ui/toaster.tsx'
import { errorMessage } from '#client/lib/errors.ts'
import { focusElement } from '#client/lib/focus.ts'
import { SCRIPT_ONLY_FORM } from '#client/lib/native-form.ts'
import type { RouterOutputs } from '#client/lib/types.ts'
import { useTRPC } from '#client/lib/use-trpc.ts'
import { QUIZ_LIMITS, QUIZ_QUESTION_LABELS, QUIZ_QUESTION_TYPES, type QuizQuestionType } from '#shared/quiz.ts'
import { css } from '#styled-system/css'
import { QuizStats } from './QuizStats.tsx'

type Editor = RouterOutputs['quizzes']['editor']
type Question = Editor['questions'][number]
type Settings = Editor['settings']

const stack = css({ display: 'flex', flexDir: 'column', gap: '3' })
const grid = css({ display: 'grid', gap: '3', gridTemplateColumns: { base: '1fr', md: 'repeat(2, 1fr)' } })

const newId = () => Math.random().toString(36).slice(2, 10)

function blankQuestion(type: QuizQuestionType): Question {
  const base = { id: newId(), prompt: '', explanation: '' }
  if (type === 'true_false') return { ...base, type, answer: true }
  if (type === 'short') return { ...base, type, accepted: [''] }
  return {
    ...base,
    type,
    options: [
      { id: newId(), text: '', correct: true },
      { id: newId(), text: '', correct: false },
    ],
  }
}

/** Another type keeps the prompt and explanation (and the options between single and multiple choice). */
function retype(question: Question, type: QuizQuestionType): Question {
  const blank = blankQuestion(type)
  const kept = { ...blank, id: question.id, prompt: question.prompt, explanation: question.explanation } as Question
  if ('options' in question && 'options' in kept) {
    const options = question.options.map((option, index) => ({
      ...option,
      correct: type === 'single' ? index === question.options.findIndex((o) => o.correct) : option.correct,
    }))
    return { ...kept, options }
  }
  return kept
}

const numberOrNull = (value: string) => (value.trim() === '' ? null : Number(value))

export function QuizEditor({ courseId, lessonId }: { courseId: string; lessonId: string }) {
  const trpc = useTRPC()
  const quiz = useQuery(trpc.quizzes.editor.queryOptions({ courseId, lessonId }, { staleTime: 0 }))
  if (quiz.isPending) return <LoadingState label="Loading the quiz…" />
  if (quiz.isError)
    return <ErrorState title="Could not load the quiz" error={quiz.error} onRetry={() => quiz.refetch()} />
  return (
    <div className={css({ display: 'grid', gap: '6' })}>
      <QuizForm quiz={quiz.data} />
      <QuizStats stats={quiz.data.stats} />
    </div>
  )
}

function QuizForm({ quiz }: { quiz: Editor }) {
  const trpc = useTRPC()
  const queryClient = useQueryClient()
  const [settings, setSettings] = useState<Settings>(quiz.settings)
  const [questions, setQuestions] = useState<Question[]>(quiz.questions)
  const [limits, setLimits] = useState({
    attempts: quiz.settings.maxAttempts?.toString() ?? '',
    timeLimit: quiz.settings.timeLimitMinutes?.toString() ?? '',
  })
  const [problem, setProblem] = useState<string | null>(null)
  /** A number setting's field: its value, and a change kept as that number. */
  const numberSetting = (key: 'passPercent' | 'waitMinutes') => ({
    type: 'number',
    value: settings[key],
    onChange: (event: ChangeEvent<HTMLInputElement>) => setSettings({ ...settings, [key]: Number(event.target.value) }),
  })
  /** An on/off setting's checkbox: whether it is on, and its change. */
  const switchSetting = (key: 'shuffleQuestions' | 'shuffleOptions' | 'required') => ({
    checked: settings[key],
    onChange: (event: ChangeEvent<HTMLInputElement>) => setSettings({ ...settings, [key]: event.target.checked }),
  })
  /** A limit's field: a whole number from 1, or empty for none (read with numberOrNull on save). */
  const limitField = (key: keyof typeof limits) => ({
    type: 'number',
    min: 1,
    value: limits[key],
    onChange: (event: ChangeEvent<HTMLInputElement>) => setLimits({ ...limits, [key]: event.target.value }),
  })
  const ref = { courseId: quiz.courseId, lessonId: quiz.lessonId }
  const save = useMutation(
    trpc.quizzes.save.mutationOptions({
      onSuccess: (saved) => {
        queryClient.setQueryData(trpc.quizzes.editor.queryKey(ref), saved)
        setProblem(null)
        notify('success', 'Quiz saved')
      },
      onError: (error) => setProblem(errorMessage(error)),
    }),
  )
  // Removing or moving a question or an option unmounts (or moves) the button that was pressed, which drops the
  // keyboard's focus to the page: once the list is drawn again, focus goes where the change happened.
  const listRef = useRef<HTMLOListElement>(null)
  const focusAfter = useRef<((list: HTMLOListElement) => void) | null>(null)
  useEffect(() => {
    const focus = focusAfter.current
    focusAfter.current = null
    if (focus && listRef.current) focus(listRef.current)
  })
  const update = (index: number, next: Question) =>
    setQuestions((list) => list.map((question, i) => (i === index ? next : question)))
  const move = (index: number, by: number, id: string) => {
    const control = by < 0 ? 'up' : 'down'
    focusAfter.current = (ol) => {
      const moved = ol.querySelector(`[data-question="${id}"]`)
      // At the top (or the bottom) the pressed button is gone: the other one takes the focus.
      focusElement(
        moved?.querySelector<HTMLElement>(`[data-move="${control}"]`) ??
          moved?.querySelector<HTMLElement>('[data-move]'),
      )
    }
    setQuestions((list) => {
      const copy = [...list]
      const [item] = copy.splice(index, 1)
      if (item) copy.splice(index + by, 0, item)
      return copy
    })
  }
  const remove = (index: number) => {
    focusAfter.current = (ol) => {
      // The question that took its place (or the one before it, when the last was removed), else the heading.
      const questions = ol.querySelectorAll<HTMLElement>('[data-question]')
      const next = questions[Math.min(index, questions.length - 1)]
      if (!focusElement(next?.querySelector<HTMLElement>('select'))) {
        focusElement(document.getElementById('quiz-questions-title'))
      }
    }
    setQuestions((list) => list.filter((_, i) => i !== index))
  }
  const removeOption = (index: number, question: Question, option: number) => {
    if (question.type !== 'single' && question.type !== 'multiple') return
    focusAfter.current = (ol) => {
      // The option that took its place (or the one before it, when the last was removed).
      const options = ol.querySelectorAll<HTMLElement>(
        `[data-question="${question.id}"] [data-option] input:not([type="radio"]):not([type="checkbox"])`,
      )
      focusElement(options[Math.min(option, options.length - 1)])
    }
    update(index, { ...question, options: question.options.filter((_, i) => i !== option) })
  }
  const onSubmit = (event: FormEvent) => {
    event.preventDefault()
    save.mutate({
      ...ref,
      settings: {
        ...settings,
        maxAttempts: numberOrNull(limits.attempts),
        timeLimitMinutes: numberOrNull(limits.timeLimit),
      },
      questions: questions.map((question) =>
        question.type === 'short'
          ? { ...question, accepted: question.accepted.map((text) => text.trim()).filter(Boolean) }
          : question,
      ),
    })
  }
  return (
    <form
      {...SCRIPT_ONLY_FORM}
      onSubmit={onSubmit}
      className={css({ display: 'grid', gap: '6' })}
      aria-labelledby="quiz-settings-title"
    >
      <section className={card}>
        <h2 id="quiz-settings-title" className={css({ fontWeight: 'semibold', fontSize: 'lg', mb: '3' })}>
          Settings
        </h2>
        <div className={grid}>
          <TextField label="Pass mark (%)" min={1} max={100} required {...numberSetting('passPercent')} />
          <TextField
            label="Attempts allowed"
            hint="Leave empty for unlimited attempts."
            max={100}
            {...limitField('attempts')}
          />
          <TextField
            label="Wait between attempts (minutes)"
            min={0}
            max={QUIZ_LIMITS.maxWaitHours * 60}
            {...numberSetting('waitMinutes')}
          />
          <TextField
            label="Time limit (minutes)"
            hint="Leave empty for no time limit. An attempt is graded as submitted when time runs out."
            max={QUIZ_LIMITS.maxTimeLimitMinutes}
            {...limitField('timeLimit')}
          />
        </div>
        <div className={css({ display: 'flex', flexWrap: 'wrap', gap: '4', mt: '4' })}>
          <CheckboxField label="Shuffle questions" {...switchSetting('shuffleQuestions')} />
          <CheckboxField label="Shuffle options" {...switchSetting('shuffleOptions')} />
          <CheckboxField label="Required to complete the course" {...switchSetting('required')} />
        </div>
      </section>
      <section className={stack} aria-labelledby="quiz-questions-title">
        <h2 id="quiz-questions-title" className={css({ fontWeight: 'semibold', fontSize: 'lg' })}>
          Questions ({questions.length})
        </h2>
        {questions.length === 0 ? (
          <p className={css({ color: 'fg.muted' })}>No questions yet. Add the first one below.</p>
        ) : null}
        <ol ref={listRef} className={stack}>
          {questions.map((question, index) => (
            <li key={question.id} className={card} data-question={question.id}>
              <QuestionFields
                question={question}
                number={index + 1}
                onChange={(next) => update(index, next)}
                onRemove={() => remove(index)}
                onRemoveOption={(option) => removeOption(index, question, option)}
                onUp={index > 0 ? () => move(index, -1, question.id) : undefined}
                onDown={index < questions.length - 1 ? () => move(index, 1, question.id) : undefined}
              />
            </li>
          ))}
        </ol>
        <div className={css({ display: 'flex', flexWrap: 'wrap', gap: '2' })}>
          {QUIZ_QUESTION_TYPES.map((type) => (
            <button
              key={type}
              type="button"
              className={button({ variant: 'outline', size: 'sm' })}
              disabled={questions.length >= QUIZ_LIMITS.questions}
              onClick={() => setQuestions((list) => [...list, blankQuestion(type)])}
            >
              Add {QUIZ_QUESTION_LABELS[type].toLowerCase()} question
            </button>
          ))}
        </div>
      </section>
      <FormAlert>{problem}</FormAlert>
      <div>
        <button type="submit" className={button()} aria-busy={save.isPending}>
          {save.isPending ? 'Saving…' : 'Save quiz'}
        </button>
      </div>
    </form>
  )
}

function QuestionFields({
  question,
  number,
  onChange,
  onRemove,
  onRemoveOption,
  onUp,
  onDown,
}: {
  question: Question
  number: number
  onChange: (question: Question) => void
  onRemove: () => void
  onRemoveOption: (index: number) => void
  onUp?: () => void
  onDown?: () => void
}) {
  const groupId = useId()
  return (
    <fieldset className={css({ borderWidth: 0, p: 0, m: 0, display: 'grid', gap: '3' })}>
      <legend className={css({ fontWeight: 'semibold', mb: '2' })}>Question {number}</legend>
      <SelectField
        label={`Question ${number}: type`}
        value={question.type}
        onChange={(e) => onChange(retype(question, e.target.value as QuizQuestionType))}
      >
        <Options items={QUIZ_QUESTION_TYPES} label={(type) => QUIZ_QUESTION_LABELS[type]} />
      </SelectField>
      <TextAreaField
        label={`Question ${number}`}
        rows={2}
        required
        maxLength={QUIZ_LIMITS.prompt}
        value={question.prompt}
        onChange={(e) => onChange({ ...question, prompt: e.target.value })}
      />
      {question.type === 'single' || question.type === 'multiple' ? (
        <fieldset className={css({ borderWidth: 0, p: 0, m: 0, display: 'grid', gap: '2' })}>
          <legend className={css({ fontSize: 'sm', fontWeight: 'medium', mb: '1' })}>
            Options ({question.type === 'single' ? 'mark the one correct option' : 'mark every correct option'})
          </legend>
          {question.options.map((option, index) => (
            <div
              key={option.id}
              data-option
              className={css({ display: 'flex', gap: '2', alignItems: 'end', flexWrap: 'wrap' })}
            >
              <label
                className={css({ display: 'inline-flex', gap: '1', alignItems: 'center', minH: '10', fontSize: 'sm' })}
              >
                <input
                  type={question.type === 'single' ? 'radio' : 'checkbox'}
                  name={`${groupId}-correct`}
                  aria-label={`Question ${number}, option ${index + 1} is correct`}
                  checked={option.correct}
                  className={css({ w: '4', h: '4', accentColor: 'accent' })}
                  onChange={(e) =>
                    onChange({
                      ...question,
                      options: question.options.map((o, i) =>
                        question.type === 'single'
                          ? { ...o, correct: i === index }
                          : i === index
                            ? { ...o, correct: e.target.checked }
                            : o,
                      ),
                    })
                  }
                />
                <span aria-hidden="true">Correct</span>
              </label>
              <TextField
                label={`Question ${number}, option ${index + 1}`}
                className={css({ display: 'flex', flexDir: 'column', gap: '1', flex: '1 1 12rem' })}
                required
                maxLength={QUIZ_LIMITS.optionText}
                value={option.text}
                onChange={(e) =>
                  onChange({
                    ...question,
                    options: question.options.map((o, i) => (i === index ? { ...o, text: e.target.value } : o)),
                  })
                }
              />
              <button
                type="button"
                className={button({ variant: 'ghost', size: 'sm' })}
                disabled={question.options.length <= 2}
                aria-label={`Remove option ${index + 1} of question ${number}`}
                onClick={() => onRemoveOption(index)}
              >
                Remove
              </button>
            </div>
          ))}
          <div>
            <button
              type="button"
              className={button({ variant: 'outline', size: 'sm' })}
              disabled={question.options.length >= QUIZ_LIMITS.options}
              onClick={() =>
                onChange({ ...question, options: [...question.options, { id: newId(), text: '', correct: false }] })
              }
            >
              Add option
            </button>
          </div>
        </fieldset>
      ) : null}
      {question.type === 'true_false' ? (
        <SelectField
          label={`Question ${number}: correct answer`}
          value={question.answer ? 'true' : 'false'}
          onChange={(e) => onChange({ ...question, answer: e.target.value === 'true' })}
        >
          <option value="true">True</option>
          <option value="false">False</option>
        </SelectField>
      ) : null}
      {question.type === 'short' ? (
        <TextAreaField
          label={`Question ${number}: accepted answers (one per line)`}
          hint="Matched ignoring upper/lower case and spaces."
          rows={2}
          required
          value={question.accepted.join('\n')}
          onChange={(e) => onChange({ ...question, accepted: e.target.value.split('\n') })}
        />
      ) : null}
      <TextAreaField
        label={`Question ${number}: explanation (shown after an attempt)`}
        rows={2}
        maxLength={QUIZ_LIMITS.explanation}
        value={question.explanation}
        onChange={(e) => onChange({ ...question, explanation: e.target.value })}
      />
      <div className={css({ display: 'flex', gap: '2', flexWrap: 'wrap' })}>
        {onUp ? <MoveButton direction="up" number={number} onClick={onUp} /> : null}
        {onDown ? <MoveButton direction="down" number={number} onClick={onDown} /> : null}
        <button
          type="button"
          className={button({ variant: 'ghost', size: 'sm' })}
          aria-label={`Remove question ${number}`}
          onClick={onRemove}
        >
          Remove question
        </button>
      </div>
    </fieldset>
  )
}

/** Move up / Move down of one question; `data-move` is how a moved question finds its button again for the focus. */
function MoveButton({ direction, number, onClick }: { direction: 'up' | 'down'; number: number; onClick: () => void }) {
  return (
    <button
      type="button"
      className={button({ variant: 'outline', size: 'sm' })}
      data-move={direction}
      aria-label={`Move ${direction}: question ${number}`}
      onClick={onClick}
    >
      {`Move ${direction}`}
    </button>
  )
}
