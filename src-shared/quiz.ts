// Quizzes' bounds and words shared by the editor, the player and the server (no zod: pages may load it).
export const QUIZ_LIMITS = {
  questions: 100,
  options: 10,
  accepted: 10,
  prompt: 2_000,
  optionText: 500,
  explanation: 4_000,
  /** An attempt's answers arrive up to this long after its time limit and still count (network latency). */
  graceSeconds: 5,
  maxTimeLimitMinutes: 600,
  maxWaitHours: 24 * 30,
} as const

export const QUIZ_MESSAGES = {
  liveQuizNeedsQuestions: 'Learners take this quiz now: keep at least one question (or remove the lesson).',
} as const

export const QUIZ_QUESTION_TYPES = ['single', 'multiple', 'true_false', 'short'] as const
export type QuizQuestionType = (typeof QUIZ_QUESTION_TYPES)[number]
export const QUIZ_QUESTION_LABELS: Record<QuizQuestionType, string> = {
  single: 'Single choice',
  multiple: 'Multiple choice',
  true_false: 'True or false',
  short: 'Short answer',
}

/** Short answers match ignoring case and spaces ("New  York" = "newyork"). */
export function normaliseShortAnswer(text: string): string {
  return text.normalize('NFKC').toLocaleLowerCase('en').replace(/\s+/g, '')
}
