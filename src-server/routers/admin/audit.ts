// The audit log, readable by admins and the owner: a page at a time, or one account's entries (found by its address,
// sent as a POST).
import { auditListInput } from '../../../src-shared/schemas/admin.ts'
import { auditLog } from '../../flows/audit-log.ts'
import { router, staffProcedure } from '../../trpc/init.ts'

export const adminAuditRouter = router({
  list: staffProcedure('admin')
    .input(auditListInput)
    .query(({ ctx, input }) => auditLog(ctx.db, input)),
})
