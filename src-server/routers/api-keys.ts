// The studio's API keys (decision 0060): the caller's own school, or the school a member names (schoolId); the flow
// checks the caller's role there (the owner: every scope; finance: orders and earnings, read; others: none) and the
// owner's plan (Enterprise includes the API). A new key's secret is in create's answer only.
import { apiKeyRefInput, createApiKeyInput } from '../../src-shared/schemas/api-keys.ts'
import { actingSchoolInput } from '../../src-shared/schemas/schools.ts'
import { createSchoolApiKey, revokeSchoolApiKey, schoolApiKeys } from '../flows/school-api-keys.ts'
import { authedProcedure, router } from '../trpc/init.ts'

export const apiKeysRouter = router({
  list: authedProcedure
    .input(actingSchoolInput.optional())
    .query(({ ctx, input }) => schoolApiKeys(ctx.db, ctx.user.id, input?.schoolId)),
  create: authedProcedure
    .input(createApiKeyInput)
    .mutation(({ ctx, input }) => createSchoolApiKey(ctx.db, ctx.user.id, input)),
  revoke: authedProcedure
    .input(apiKeyRefInput)
    .mutation(({ ctx, input }) => revokeSchoolApiKey(ctx.db, ctx.user.id, input.keyId, input.schoolId)),
})
