// The audit log, readable by admins and the owner.
import { ADMIN_PAGE_SIZE, auditListInput } from '../../../src-shared/schemas/admin.ts'
import { listAudit } from '../../audit/repository.ts'
import { router, staffProcedure } from '../../trpc/init.ts'

const AUDIT_PAGE_SIZE = ADMIN_PAGE_SIZE * 2

export const adminAuditRouter = router({
  list: staffProcedure('admin')
    .input(auditListInput)
    .query(({ ctx, input }) => listAudit(ctx.db, input.page, AUDIT_PAGE_SIZE)),
})
