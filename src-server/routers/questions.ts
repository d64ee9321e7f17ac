// Questions under lessons (issue 33): one line per procedure; who may do what is the flow's (flows/lesson-questions.ts).
import {
  answerInput,
  askQuestionInput,
  digestInput,
  digestRef,
  dismissReportsInput,
  hideInput,
  markAnsweredInput,
  questionListInput,
  questionRef,
  reportInput,
  reportQueueInput,
  voteInput,
} from '../../src-shared/schemas/questions.ts'
import {
  answerQuestion,
  askQuestion,
  courseReports,
  digestSetting,
  dismissPostReports,
  hidePost,
  markAnswered,
  questionPage,
  questionThread,
  reportPost,
  reportQueue,
  setDigest,
  voteQuestion,
} from '../flows/lesson-questions.ts'
import { router, staffReachProcedure } from '../trpc/init.ts'

export const questionsRouter = router({
  list: staffReachProcedure.input(questionListInput).query(({ ctx, input }) => questionPage(ctx.db, ctx.user, input)),
  answers: staffReachProcedure
    .input(questionRef)
    .query(({ ctx, input }) => questionThread(ctx.db, ctx.user, input.questionId)),
  ask: staffReachProcedure
    .input(askQuestionInput)
    .mutation(({ ctx, input }) => askQuestion(ctx.db, ctx.limiter, ctx.user, input)),
  answer: staffReachProcedure
    .input(answerInput)
    .mutation(({ ctx, input }) => answerQuestion(ctx.db, ctx.limiter, ctx.user, input)),
  markAnswered: staffReachProcedure
    .input(markAnsweredInput)
    .mutation(({ ctx, input }) => markAnswered(ctx.db, ctx.user, input, ctx.config.publicUrl)),
  vote: staffReachProcedure.input(voteInput).mutation(({ ctx, input }) => voteQuestion(ctx.db, ctx.user, input)),
  hide: staffReachProcedure.input(hideInput).mutation(({ ctx, input }) => hidePost(ctx.db, ctx.user, input)),
  report: staffReachProcedure
    .input(reportInput)
    .mutation(({ ctx, input }) => reportPost(ctx.db, ctx.limiter, ctx.user, input)),
  reports: staffReachProcedure
    .input(digestRef)
    .query(({ ctx, input }) => courseReports(ctx.db, ctx.user, input.courseId)),
  reportQueue: staffReachProcedure
    .input(reportQueueInput)
    .query(({ ctx, input }) => reportQueue(ctx.db, ctx.user, input)),
  dismissReports: staffReachProcedure
    .input(dismissReportsInput)
    .mutation(({ ctx, input }) => dismissPostReports(ctx.db, ctx.user, input)),
  digest: staffReachProcedure
    .input(digestRef)
    .query(({ ctx, input }) => digestSetting(ctx.db, ctx.user, input.courseId)),
  setDigest: staffReachProcedure
    .input(digestInput)
    .mutation(({ ctx, input }) => setDigest(ctx.db, ctx.user, input.courseId, input.optOut)),
})
