// A school's single sign-on (decision 0062): the owner's settings (their own school only; saving needs a plan with
// 'sso'), and the public look-up behind the "Sign in with {school}" button.
import { schoolSsoInput, ssoSchoolInput } from '../../src-shared/schemas/sso.ts'
import { saveSsoSettings, ssoForSlug, ssoPanel } from '../flows/school-sso.ts'
import { creatorProcedure, publicProcedure, router } from '../trpc/init.ts'

export const schoolSsoRouter = router({
  /** The owner's settings without the client secret (only whether one is stored), and the redirect URI to register. */
  mine: creatorProcedure.query(({ ctx }) => ssoPanel(ctx.db, ctx.user.id, ctx.config)),

  save: creatorProcedure
    .input(schoolSsoInput)
    .mutation(({ ctx, input }) => saveSsoSettings(ctx.db, ctx.user.id, input, ctx.config)),

  /** The school's name and slug when it offers single sign-on, else null. */
  forSchool: publicProcedure.input(ssoSchoolInput).query(({ ctx, input }) => ssoForSlug(ctx.db, input.slug)),
})
