// The studio's API keys (decision 0060): the caller's own school, or the school a member names (schoolId); the flow
// checks the caller's role there (the owner: every scope; finance: orders and earnings, read; others: none) and the
// owner's plan (Enterprise includes the API). A new key's secret is in create's answer only; creating one needs a
// fresh proof (decision 0131), as a data export does: a key outlives the session that made it.
import { apiKeyRefInput, createApiKeyInput } from '../../src-shared/schemas/api-keys.ts'
import { actingSchoolInput } from '../../src-shared/schemas/schools.ts'
import { confirmAction, confirmationMethod } from '../auth/confirm-action.ts'
import { twoFactorSettings } from '../auth/two-factor.ts'
import { createSchoolApiKey, revokeSchoolApiKey, schoolApiKeys } from '../flows/school-api-keys.ts'
import { passwordsTypedHere } from '../trpc/context.ts'
import { authedProcedure, router } from '../trpc/init.ts'
import { paceSecurityTries } from '../trpc/security-pace.ts'

export const apiKeysRouter = router({
  /** The keys the caller may see, and how "Create key" is confirmed (the password or an app code, or a mailed code). */
  list: authedProcedure.input(actingSchoolInput.optional()).query(async ({ ctx, input }) => ({
    ...(await schoolApiKeys(ctx.db, ctx.user.id, input?.schoolId)),
    confirm: await confirmationMethod(ctx.db, ctx.user.id, passwordsTypedHere(ctx)),
  })),
  /** Makes a key after a fresh proof (checked before anything else); the school's owner is mailed. */
  create: authedProcedure.input(createApiKeyInput).mutation(async ({ ctx, input }) => {
    await paceSecurityTries(ctx, ctx.user.id)
    const { password, code, ...fields } = input
    await confirmAction(ctx.db, ctx.user.id, { password, code }, twoFactorSettings(ctx.config), passwordsTypedHere(ctx))
    return createSchoolApiKey(ctx.db, ctx.user.id, fields, ctx.config.publicUrl)
  }),
  revoke: authedProcedure
    .input(apiKeyRefInput)
    .mutation(({ ctx, input }) => revokeSchoolApiKey(ctx.db, ctx.user.id, input.keyId, input.schoolId)),
})
