// A creator's lesson videos (the bytes arrive over tus: http/tus-uploads.ts): the list with storage used against the
// plan, one upload's state once it finished, and the release of a video no lesson uses. Only the creator's own and
// those their plan counts (their course teams' uploads for their courses, decision 0138).
import { uploadIdInput } from '../../src-shared/schemas/creator-uploads.ts'
import { releaseVideoUpload, videoUploadOf, videoUploadsOf } from '../flows/creator-video-uploads.ts'
import { courseEditorProcedure, creatorProcedure, router } from '../trpc/init.ts'

export const creatorUploadsRouter = router({
  list: creatorProcedure.query(({ ctx }) => videoUploadsOf(ctx.db, ctx.user.id, ctx.config.creatorLimits)),

  // The lesson editor reads back its own finished upload: a co-instructor who is not a creator uploads too.
  get: courseEditorProcedure
    .input(uploadIdInput)
    .query(({ ctx, input }) => videoUploadOf(ctx.db, ctx.user.id, input.uploadId)),

  release: creatorProcedure.input(uploadIdInput).mutation(async ({ ctx, input }) => {
    await releaseVideoUpload(ctx.db, ctx.storage, ctx.user.id, input.uploadId)
    return { released: true }
  }),
})
