// The signed-in user's own profile. The avatar upload is a plain route (multipart): http/avatar.ts.
import { mailPreferencesInput, profileNameInput } from '../../src-shared/schemas/auth.ts'
import { loadMe } from '../auth/me.ts'
import { mailPreferencesOf, setMailPreferences, updateProfileName } from '../profile/editing.ts'
import { authedProcedure, router } from '../trpc/init.ts'

export const profileRouter = router({
  updateName: authedProcedure.input(profileNameInput).mutation(async ({ ctx, input }) => {
    await updateProfileName(ctx.db, ctx.user.id, input.firstName, input.lastName)
    return loadMe(ctx.db, ctx.user.id)
  }),

  mailPreferences: authedProcedure
    .output(mailPreferencesInput)
    .query(({ ctx }) => mailPreferencesOf(ctx.db, ctx.user.id)),

  setMailPreferences: authedProcedure
    .input(mailPreferencesInput)
    .mutation(({ ctx, input }) => setMailPreferences(ctx.db, ctx.user.id, input)),
})
