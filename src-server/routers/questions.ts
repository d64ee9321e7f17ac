// Questions under lessons (issue 33): one line per procedure; who may do what is the flow's (flows/lesson-questions.ts).
import {
  answerInput,
  askQuestionInput,
  digestInput,
  digestRef,
  hideInput,
  markAnsweredInput,
  questionListInput,
  questionRef,
  reportInput,
  voteInput,
} from '../../src-shared/schemas/questions.ts'
import {
  answerQuestion,
  askQuestion,
  courseReports,
  digestSetting,
  hidePost,
  markAnswered,
  questionPage,
  questionThread,
  reportPost,
  setDigest,
  voteQuestion,
} from '../flows/lesson-questions.ts'
import { authedProcedure, router } from '../trpc/init.ts'

export const questionsRouter = router({
  list: authedProcedure.input(questionListInput).query(({ ctx, input }) => questionPage(ctx.db, ctx.user, input)),
  answers: authedProcedure
    .input(questionRef)
    .query(({ ctx, input }) => questionThread(ctx.db, ctx.user, input.questionId)),
  ask: authedProcedure
    .input(askQuestionInput)
    .mutation(({ ctx, input }) => askQuestion(ctx.db, ctx.limiter, ctx.user, input)),
  answer: authedProcedure
    .input(answerInput)
    .mutation(({ ctx, input }) => answerQuestion(ctx.db, ctx.limiter, ctx.user, input)),
  markAnswered: authedProcedure
    .input(markAnsweredInput)
    .mutation(({ ctx, input }) => markAnswered(ctx.db, ctx.user, input, ctx.config.publicUrl)),
  vote: authedProcedure.input(voteInput).mutation(({ ctx, input }) => voteQuestion(ctx.db, ctx.user, input)),
  hide: authedProcedure.input(hideInput).mutation(({ ctx, input }) => hidePost(ctx.db, ctx.user, input)),
  report: authedProcedure
    .input(reportInput)
    .mutation(({ ctx, input }) => reportPost(ctx.db, ctx.limiter, ctx.user, input)),
  reports: authedProcedure.input(digestRef).query(({ ctx, input }) => courseReports(ctx.db, ctx.user, input.courseId)),
  digest: authedProcedure.input(digestRef).query(({ ctx, input }) => digestSetting(ctx.db, ctx.user, input.courseId)),
  setDigest: authedProcedure
    .input(digestInput)
    .mutation(({ ctx, input }) => setDigest(ctx.db, ctx.user, input.courseId, input.optOut)),
})
