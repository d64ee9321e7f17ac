// The signed-in user's own profile. The avatar upload is a plain route (multipart): http/avatar.ts.
import { profileNameInput } from '../../src-shared/schemas/auth.ts'
import { loadMe } from '../auth/me.ts'
import { updateProfileName } from '../profile/editing.ts'
import { authedProcedure, router } from '../trpc/init.ts'

export const profileRouter = router({
  updateName: authedProcedure.input(profileNameInput).mutation(async ({ ctx, input }) => {
    await updateProfileName(ctx.db, ctx.user.id, input.firstName, input.lastName)
    return loadMe(ctx.db, ctx.user.id)
  }),
})
