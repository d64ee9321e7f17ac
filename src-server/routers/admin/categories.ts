// Manage Categories. Reading needs a viewer; changes need an editor.
import { z } from 'zod'
import { categoryInput, categoryUpdateInput } from '../../../src-shared/schemas/admin.ts'
import { createCategory, deleteCategory, listAdminCategories, updateCategory } from '../../catalog/category-editing.ts'
import { router, staffProcedure } from '../../trpc/init.ts'
import { actorOf } from './actor.ts'

export const adminCategoriesRouter = router({
  list: staffProcedure('viewer').query(({ ctx }) => listAdminCategories(ctx.db)),
  create: staffProcedure('editor')
    .input(categoryInput)
    .mutation(({ ctx, input }) => createCategory(ctx.db, actorOf(ctx.user), input)),
  update: staffProcedure('editor')
    .input(categoryUpdateInput)
    .mutation(({ ctx, input }) => updateCategory(ctx.db, actorOf(ctx.user), input)),
  delete: staffProcedure('editor')
    .input(z.object({ id: z.uuid() }))
    .mutation(async ({ ctx, input }) => {
      await deleteCategory(ctx.db, actorOf(ctx.user), input.id)
      return { id: input.id }
    }),
})
