// Applications to teach as staff see them: every staff member reads the queue and the files; admins and up
// approve or decline (audited, the applicant e-mailed).
import { ADMIN_PAGE_SIZE } from '../../../src-shared/admin.ts'
import { applicationIdInput, declineInput, staffApplicationsInput } from '../../../src-shared/schemas/creators.ts'
import { applicationForStaff, listApplications } from '../../creators/applications.ts'
import { approveApplication, declineApplication } from '../../flows/creator-applications.ts'
import { router, staffProcedure } from '../../trpc/init.ts'
import { actorOf } from './actor.ts'

export const adminCreatorApplicationsRouter = router({
  list: staffProcedure('viewer')
    .input(staffApplicationsInput)
    .query(({ ctx, input }) => listApplications(ctx.db, input, input.page, ADMIN_PAGE_SIZE)),

  detail: staffProcedure('viewer')
    .input(applicationIdInput)
    .query(({ ctx, input }) => applicationForStaff(ctx.db, input.id)),

  approve: staffProcedure('admin')
    .input(applicationIdInput)
    .mutation(({ ctx, input }) => approveApplication(ctx.db, actorOf(ctx.user), input.id, ctx.config.publicUrl)),

  decline: staffProcedure('admin')
    .input(declineInput)
    .mutation(({ ctx, input }) =>
      declineApplication(ctx.db, actorOf(ctx.user), input.id, input.reason, ctx.config.publicUrl),
    ),
})
