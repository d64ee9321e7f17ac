// A person's own data (issue 28): ask for an export of everything we hold, and list one's exports. Staff (admin
// and up) may ask for a person who wrote in (audited). Downloads go through /api/account/exports/<id>.zip.
import { exportForPersonInput } from '../../src-shared/schemas/privacy.ts'
import { dataExportsOf, requestDataExport } from '../flows/data-export.ts'
import { authedProcedure, router, staffProcedure } from '../trpc/init.ts'
import { actorOf } from './admin/actor.ts'

export const privacyRouter = router({
  exports: authedProcedure.query(({ ctx }) => dataExportsOf(ctx.db, ctx.user.id)),

  requestExport: authedProcedure.mutation(({ ctx }) => requestDataExport(ctx.db, ctx.user.id)),

  requestExportFor: staffProcedure('admin')
    .input(exportForPersonInput)
    .mutation(({ ctx, input }) => requestDataExport(ctx.db, input.userId, actorOf(ctx.user))),
})
