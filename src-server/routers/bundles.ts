// Bundles (issue 32): the public bundle page and the cards that point to it, the studio's bundles (creators, their
// own courses) and the admin's (editor and up, any course). flows/bundle-editing.ts checks ownership and prices.
import {
  bundleIdInput,
  bundleInput,
  bundleSlugInput,
  bundleUpdateInput,
  courseBundlesInput,
} from '../../src-shared/schemas/bundles.ts'
import { createBundle, editorBundles, removeBundle, saveBundle } from '../flows/bundle-editing.ts'
import { bundleCourseChoices, publicBundle, publishedBundles } from '../promotions/bundles.ts'
import { creatorProcedure, publicProcedure, router, staffProcedure } from '../trpc/init.ts'
import { actorOf } from './admin/actor.ts'

const editorProcedure = staffProcedure('editor')

export const bundlesRouter = router({
  bySlug: publicProcedure.input(bundleSlugInput).query(({ ctx, input }) => publicBundle(ctx.db, input.slug)),

  /** The catalogue's bundle cards. */
  published: publicProcedure.query(({ ctx }) => publishedBundles(ctx.db)),

  /** The bundles a course page offers ("Save 35 %"). */
  forCourse: publicProcedure
    .input(courseBundlesInput)
    .query(({ ctx, input }) => publishedBundles(ctx.db, { courseId: input.courseId })),

  studio: router({
    list: creatorProcedure.query(({ ctx }) => editorBundles(ctx.db, { kind: 'creator', userId: ctx.user.id })),
    courses: creatorProcedure.query(({ ctx }) => bundleCourseChoices(ctx.db, ctx.user.id)),
    create: creatorProcedure
      .input(bundleInput)
      .mutation(({ ctx, input }) => createBundle(ctx.db, { kind: 'creator', userId: ctx.user.id }, input)),
    update: creatorProcedure
      .input(bundleUpdateInput)
      .mutation(({ ctx, input }) =>
        saveBundle(ctx.db, { kind: 'creator', userId: ctx.user.id }, input.bundleId, input),
      ),
    remove: creatorProcedure
      .input(bundleIdInput)
      .mutation(({ ctx, input }) => removeBundle(ctx.db, { kind: 'creator', userId: ctx.user.id }, input.bundleId)),
  }),

  admin: router({
    list: editorProcedure.query(({ ctx }) => editorBundles(ctx.db, { kind: 'staff', actor: actorOf(ctx.user) })),
    courses: editorProcedure.query(({ ctx }) => bundleCourseChoices(ctx.db)),
    create: editorProcedure
      .input(bundleInput)
      .mutation(({ ctx, input }) => createBundle(ctx.db, { kind: 'staff', actor: actorOf(ctx.user) }, input)),
    update: editorProcedure
      .input(bundleUpdateInput)
      .mutation(({ ctx, input }) =>
        saveBundle(ctx.db, { kind: 'staff', actor: actorOf(ctx.user) }, input.bundleId, input),
      ),
    remove: editorProcedure
      .input(bundleIdInput)
      .mutation(({ ctx, input }) => removeBundle(ctx.db, { kind: 'staff', actor: actorOf(ctx.user) }, input.bundleId)),
  }),
})
