// Inputs of the quiz procedures: the editor's definition (studio and staff) and a learner's attempt.
import { z } from 'zod'
import { QUIZ_LIMITS } from '../quiz.ts'
import { courseIdSchema } from './catalog.ts'

export const quizRefInput = z.object({ courseId: courseIdSchema, lessonId: z.uuid() })

const id = z.string().trim().min(1).max(64)
const prompt = z.string().trim().min(1, 'Write the question').max(QUIZ_LIMITS.prompt, 'The question is too long')
const explanation = z.string().trim().max(QUIZ_LIMITS.explanation, 'The explanation is too long').default('')
const option = z.object({
  id,
  text: z.string().trim().min(1, 'Each option needs text').max(QUIZ_LIMITS.optionText, 'An option is too long'),
  correct: z.boolean(),
})

export const quizQuestionInput = z
  .discriminatedUnion('type', [
    z.object({
      id,
      type: z.enum(['single', 'multiple']),
      prompt,
      explanation,
      options: z.array(option).min(2, 'Give at least two options').max(QUIZ_LIMITS.options, 'At most ten options'),
    }),
    z.object({ id, type: z.literal('true_false'), prompt, explanation, answer: z.boolean() }),
    z.object({
      id,
      type: z.literal('short'),
      prompt,
      explanation,
      accepted: z
        .array(z.string().trim().min(1, 'An accepted answer is empty').max(QUIZ_LIMITS.optionText))
        .min(1, 'Give at least one accepted answer')
        .max(QUIZ_LIMITS.accepted),
    }),
  ])
  .superRefine((question, ctx) => {
    if (question.type !== 'single' && question.type !== 'multiple') return
    const correct = question.options.filter((o) => o.correct).length
    if (question.type === 'single' && correct !== 1) {
      ctx.addIssue({ code: 'custom', message: 'Mark exactly one option correct', path: ['options'] })
    }
    if (question.type === 'multiple' && correct < 1) {
      ctx.addIssue({ code: 'custom', message: 'Mark at least one option correct', path: ['options'] })
    }
    if (new Set(question.options.map((o) => o.id)).size !== question.options.length) {
      ctx.addIssue({ code: 'custom', message: 'Options need distinct ids', path: ['options'] })
    }
  })

export const quizSettingsInput = z.object({
  passPercent: z.number().int().min(1, 'Pass mark: 1 to 100 %').max(100, 'Pass mark: 1 to 100 %'),
  /** Null: unlimited. */
  maxAttempts: z.number().int().min(1).max(100).nullable(),
  waitMinutes: z
    .number()
    .int()
    .min(0)
    .max(QUIZ_LIMITS.maxWaitHours * 60),
  /** Null: untimed. */
  timeLimitMinutes: z.number().int().min(1).max(QUIZ_LIMITS.maxTimeLimitMinutes).nullable(),
  shuffleQuestions: z.boolean(),
  shuffleOptions: z.boolean(),
  required: z.boolean(),
})

export const saveQuizInput = quizRefInput.extend({
  settings: quizSettingsInput,
  questions: z
    .array(quizQuestionInput)
    .max(QUIZ_LIMITS.questions, `At most ${QUIZ_LIMITS.questions} questions`)
    .refine((list) => new Set(list.map((q) => q.id)).size === list.length, 'Questions need distinct ids'),
})
export type SaveQuizInput = z.input<typeof saveQuizInput>

const answer = z.union([z.array(id).max(QUIZ_LIMITS.options), z.boolean(), z.string().max(QUIZ_LIMITS.optionText)])
const answers = z.record(id, answer).refine((value) => Object.keys(value).length <= QUIZ_LIMITS.questions)

export const attemptAnswersInput = quizRefInput.extend({ attemptId: z.uuid(), answers })
