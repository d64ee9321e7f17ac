// Quizzes (issue 33): the learner's side (the quiz without its key, start, save answers, submit) and the editors'
// (the definition with its key and the numbers, save). Flows check access: the lesson's rule for learners, the
// course's team or a staff editor for editors. Every procedure runs under the staff 2FA rule (staffReachProcedure):
// with STAFF_2FA=required an admin or owner without a second factor has no staff reach here (they edit and take
// quizzes as any customer would: their own courses and enrolments) and is told to set one up.
import { attemptAnswersInput, quizRefInput, saveQuizInput } from '../../src-shared/schemas/quiz.ts'
import { quizForEditor, saveQuiz } from '../flows/quiz-editing.ts'
import { learnerQuiz, saveQuizAnswers, startQuizAttempt, submitQuizAttempt } from '../flows/quiz-taking.ts'
import { router, staffReachProcedure } from '../trpc/init.ts'

export const quizzesRouter = router({
  /** The quiz as the learner sees it: never its key before an attempt is submitted. */
  forLearner: staffReachProcedure
    .input(quizRefInput)
    .query(({ ctx, input }) => learnerQuiz(ctx.db, ctx.user, input, ctx.publicUrl)),

  start: staffReachProcedure
    .input(quizRefInput)
    .mutation(({ ctx, input }) => startQuizAttempt(ctx.db, ctx.user, input, ctx.publicUrl)),

  saveAnswers: staffReachProcedure
    .input(attemptAnswersInput)
    .mutation(({ ctx, input }) => saveQuizAnswers(ctx.db, ctx.user, input)),

  submit: staffReachProcedure
    .input(attemptAnswersInput)
    .mutation(({ ctx, input }) => submitQuizAttempt(ctx.db, ctx.user, input, ctx.publicUrl)),

  /** The whole quiz with its key and its numbers, for the course's editors and staff editors. */
  editor: staffReachProcedure.input(quizRefInput).query(({ ctx, input }) => quizForEditor(ctx.db, ctx.user, input)),

  save: staffReachProcedure.input(saveQuizInput).mutation(({ ctx, input }) => saveQuiz(ctx.db, ctx.user, input)),
})
