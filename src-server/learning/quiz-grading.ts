// Grading on the server, and what a learner may see of a question before submitting: the prompt and the options'
// texts, never which one is correct, the accepted short answers or the explanation. Pure functions.
import { randomInt } from 'node:crypto'
import type { QuizAnswer, QuizLayout, QuizQuestion } from '../../db/types.ts'
import { normaliseShortAnswer } from '../../src-shared/quiz.ts'

export function isCorrect(question: QuizQuestion, answer: QuizAnswer | undefined): boolean {
  if (answer === undefined) return false
  switch (question.type) {
    case 'single':
    case 'multiple': {
      if (!Array.isArray(answer)) return false
      const chosen = new Set(answer)
      const correct = question.options.filter((option) => option.correct).map((option) => option.id)
      return chosen.size === correct.length && correct.every((optionId) => chosen.has(optionId))
    }
    case 'true_false':
      return answer === question.answer
    case 'short': {
      if (typeof answer !== 'string') return false
      const given = normaliseShortAnswer(answer)
      return given !== '' && question.accepted.some((accepted) => normaliseShortAnswer(accepted) === given)
    }
  }
}

export interface Grade {
  results: Record<string, boolean>
  correct: number
  total: number
  /** Rounded down, so the percentage shown never says 80 for a 79.9 that failed an 80 % pass mark. */
  percent: number
  passed: boolean
}

/** Grades the questions the attempt asked (its layout) that the quiz still has. */
export function gradeAttempt(
  questions: QuizQuestion[],
  layout: QuizLayout,
  answers: Record<string, QuizAnswer>,
  passPercent: number,
): Grade {
  const byId = new Map(questions.map((question) => [question.id, question]))
  const asked = layout.questions.flatMap((id) => byId.get(id) ?? [])
  const results = Object.fromEntries(asked.map((question) => [question.id, isCorrect(question, answers[question.id])]))
  const correct = Object.values(results).filter(Boolean).length
  const total = asked.length
  return {
    results,
    correct,
    total,
    percent: total === 0 ? 0 : Math.floor((correct * 100) / total),
    passed: total > 0 && correct * 100 >= passPercent * total,
  }
}

function shuffled<T>(items: T[], shuffle: boolean): T[] {
  const copy = [...items]
  if (!shuffle) return copy
  for (let i = copy.length - 1; i > 0; i -= 1) {
    const j = randomInt(i + 1)
    ;[copy[i], copy[j]] = [copy[j] as T, copy[i] as T]
  }
  return copy
}

/** The order one attempt shows: questions and each question's options, shuffled when the quiz says so. */
export function layoutFor(questions: QuizQuestion[], shuffleQuestions: boolean, shuffleOptions: boolean): QuizLayout {
  const options: Record<string, string[]> = {}
  for (const question of questions) {
    if (question.type === 'single' || question.type === 'multiple') {
      options[question.id] = shuffled(
        question.options.map((option) => option.id),
        shuffleOptions,
      )
    }
  }
  return {
    questions: shuffled(
      questions.map((question) => question.id),
      shuffleQuestions,
    ),
    options,
  }
}

/** A question as a learner sees it while answering: no key, no explanation. */
export function questionForLearner(question: QuizQuestion, layout: QuizLayout) {
  const base = { id: question.id, type: question.type, prompt: question.prompt }
  if (question.type === 'single' || question.type === 'multiple') {
    const byId = new Map(question.options.map((option) => [option.id, option.text]))
    const order = layout.options[question.id] ?? question.options.map((option) => option.id)
    return { ...base, options: order.flatMap((id) => (byId.has(id) ? [{ id, text: byId.get(id) ?? '' }] : [])) }
  }
  return { ...base, options: null }
}
export type LearnerQuestion = ReturnType<typeof questionForLearner>

/** The questions of an attempt, in its order, as the learner sees them. */
export function attemptQuestions(questions: QuizQuestion[], layout: QuizLayout): LearnerQuestion[] {
  const byId = new Map(questions.map((question) => [question.id, question]))
  return layout.questions.flatMap((id) => {
    const question = byId.get(id)
    return question ? [questionForLearner(question, layout)] : []
  })
}

/** After submission: each question with the learner's answer in words, whether it was right, and the explanation. */
export function reviewOf(
  questions: QuizQuestion[],
  layout: QuizLayout,
  answers: Record<string, QuizAnswer>,
  results: Record<string, boolean>,
) {
  const byId = new Map(questions.map((question) => [question.id, question]))
  return layout.questions.flatMap((id) => {
    const question = byId.get(id)
    if (!question || !(id in results)) return []
    return [
      {
        id,
        prompt: question.prompt,
        yourAnswer: answerInWords(question, answers[id]),
        correct: results[id] === true,
        explanation: question.explanation,
      },
    ]
  })
}

function answerInWords(question: QuizQuestion, answer: QuizAnswer | undefined): string {
  if (answer === undefined || answer === '' || (Array.isArray(answer) && answer.length === 0)) return 'No answer'
  if (question.type === 'true_false') return answer === true ? 'True' : answer === false ? 'False' : 'No answer'
  if (question.type === 'short') return typeof answer === 'string' ? answer : 'No answer'
  if (!Array.isArray(answer)) return 'No answer'
  const texts = question.options.filter((option) => answer.includes(option.id)).map((option) => option.text)
  return texts.length > 0 ? texts.join(', ') : 'No answer'
}
