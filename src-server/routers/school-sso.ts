// A school's single sign-on (decision 0062): the owner's settings (their own school only; saving needs a plan with
// 'sso'), the public look-up behind the "Sign in with {school}" button, and an account's own links: the consent that
// links a waiting sign-in (this session's only, with a fresh proof), the list and unlinking on the security page.
import { actionProofInput } from '../../src-shared/schemas/privacy.ts'
import {
  checkSsoDomainInput,
  schoolSsoInput,
  ssoSchoolInput,
  unlinkSchoolSignInInput,
} from '../../src-shared/schemas/sso.ts'
import { confirmationMethod } from '../auth/confirm-action.ts'
import { dropPendingLink } from '../auth/sso-links.ts'
import { createTxtLookup } from '../creators/dns-verify.ts'
import {
  confirmSsoLink,
  pendingSsoLink,
  removeSsoSettings,
  saveSsoSettings,
  schoolSignIns,
  ssoForSlug,
  ssoPanel,
  unlinkSchoolSignIn,
} from '../flows/school-sso.ts'
import { checkSsoDomain, ssoDomainProofList } from '../flows/sso-domain-proofs.ts'
import { passwordsTypedHere } from '../trpc/context.ts'
import { authedProcedure, creatorProcedure, publicProcedure, router } from '../trpc/init.ts'
import { paceSecurityTries } from '../trpc/security-pace.ts'

const systemLookup = createTxtLookup()

export const schoolSsoRouter = router({
  /** The owner's settings without the client secret (only whether one is stored), and the redirect URI to register. */
  mine: creatorProcedure.query(({ ctx }) => ssoPanel(ctx.db, ctx.user.id, ctx.config)),

  save: creatorProcedure
    .input(schoolSsoInput)
    .mutation(({ ctx, input }) => saveSsoSettings(ctx.db, ctx.user.id, input, ctx.config)),

  /** "Remove single sign-on": the settings, the secret, the domains' proofs and the accounts' links go. */
  remove: creatorProcedure.mutation(({ ctx }) => removeSsoSettings(ctx.db, ctx.user.id, ctx.config)),

  /** Each allowed e-mail domain's DNS proof: the TXT record to publish, its status and why. */
  domainProofs: creatorProcedure.query(({ ctx }) => ssoDomainProofList(ctx.db, ctx.user.id)),

  /** Looks one allowed domain's TXT record up now (the owner's own school, on a plan with SSO). */
  checkDomain: creatorProcedure
    .input(checkSsoDomainInput)
    .mutation(({ ctx, input }) =>
      checkSsoDomain(ctx.db, ctx.user.id, input.domain, ctx.config.txtLookup ?? systemLookup, ctx.config.publicUrl),
    ),

  /** The school's name and slug when it offers single sign-on, else null. */
  forSchool: publicProcedure.input(ssoSchoolInput).query(({ ctx, input }) => ssoForSlug(ctx.db, input.slug)),

  /** The sign-in waiting for this session's consent (school name, the provider's address) and how to confirm. */
  pendingLink: authedProcedure.query(async ({ ctx }) => {
    const pending = await pendingSsoLink(ctx.db, ctx.session.id, ctx.user.id)
    return pending
      ? { ...pending, confirm: await confirmationMethod(ctx.db, ctx.user.id, passwordsTypedHere(ctx)) }
      : null
  }),

  /** Links the waiting sign-in to this account after a fresh proof; mails the account. */
  confirmLink: authedProcedure.input(actionProofInput).mutation(async ({ ctx, input }) => {
    await paceSecurityTries(ctx, ctx.user.id)
    const who = { sessionId: ctx.session.id, userId: ctx.user.id }
    return confirmSsoLink(ctx.db, ctx.config, who, input, passwordsTypedHere(ctx))
  }),

  /** "Don't link": the waiting sign-in is dropped. */
  cancelLink: authedProcedure.mutation(async ({ ctx }) => {
    await dropPendingLink(ctx.db, ctx.session.id)
    return { ok: true }
  }),

  /** The schools whose sign-in is linked to this account. */
  linked: authedProcedure.query(({ ctx }) => schoolSignIns(ctx.db, ctx.user.id)),

  unlink: authedProcedure.input(unlinkSchoolSignInInput).mutation(async ({ ctx, input }) => {
    await unlinkSchoolSignIn(ctx.db, ctx.user.id, input.schoolId)
    return { ok: true }
  }),
})
