// The signed-in user's own profile. The avatar upload is a plain route (multipart): http/avatar.ts.
import {
  courseNewsInput,
  emailChangeInput,
  mailPreferencesInput,
  mailPreferencesView,
  profileNameInput,
  tokenInput,
} from '../../src-shared/schemas/auth.ts'
import { reminderUnsubscribeInput } from '../../src-shared/schemas/cart-reminders.ts'
import { confirmAction, confirmationMethod } from '../auth/confirm-action.ts'
import { loadMe } from '../auth/me.ts'
import { twoFactorSettings } from '../auth/two-factor.ts'
import { cancelEmailChange, confirmEmailChange, emailChangeStatus, requestEmailChange } from '../flows/email-change.ts'
import { stopCourseMailByLink } from '../flows/mail-unsubscribe.ts'
import { mailPreferencesOf, setMailPreferences, updateProfileName } from '../profile/editing.ts'
import { RATE_RULES } from '../security/rate-limit.ts'
import { passwordsTypedHere } from '../trpc/context.ts'
import { authedProcedure, publicProcedure, router } from '../trpc/init.ts'
import { enforceLimit, paceSecurityTries } from '../trpc/security-pace.ts'
import { setCourseNewsWanted } from '../users/course-news.ts'

export const profileRouter = router({
  updateName: authedProcedure.input(profileNameInput).mutation(async ({ ctx, input }) => {
    await updateProfileName(ctx.db, ctx.user.id, input.firstName, input.lastName)
    return loadMe(ctx.db, ctx.user.id)
  }),

  mailPreferences: authedProcedure
    .output(mailPreferencesView)
    .query(({ ctx }) => mailPreferencesOf(ctx.db, ctx.user.id)),

  setMailPreferences: authedProcedure
    .input(mailPreferencesInput)
    .mutation(({ ctx, input }) => setMailPreferences(ctx.db, ctx.user.id, input)),

  /** One course's news by e-mail, stopped or taken again (the others' news is unchanged). */
  setCourseNews: authedProcedure.input(courseNewsInput).mutation(async ({ ctx, input }) => {
    await setCourseNewsWanted(ctx.db, ctx.user.id, input.courseId, input.wanted)
    return mailPreferencesOf(ctx.db, ctx.user.id)
  }),

  /** A course mail's unsubscribe link (its news, or its question digest), followed by a person (no log-in). */
  stopCourseMail: publicProcedure
    .input(reminderUnsubscribeInput)
    .mutation(({ ctx, input }) => stopCourseMailByLink(ctx.db, input.token)),

  /** Whether the address may be changed here, the link waiting (if any), and how the change is confirmed. */
  emailChange: authedProcedure.query(async ({ ctx }) => ({
    ...(await emailChangeStatus(ctx.db, ctx.user.id)),
    confirm: await confirmationMethod(ctx.db, ctx.user.id, passwordsTypedHere(ctx)),
  })),

  /** Mails a link to the new address after a fresh proof; the account moves when the link is used (decision 0157). */
  requestEmailChange: authedProcedure.input(emailChangeInput).mutation(async ({ ctx, input }) => {
    await paceSecurityTries(ctx, ctx.user.id)
    await confirmAction(ctx.db, ctx.user.id, input, twoFactorSettings(ctx.config), passwordsTypedHere(ctx))
    await enforceLimit(ctx, RATE_RULES.emailChangePerAddress, `email-change-to:${input.newEmail.toLowerCase()}`)
    return requestEmailChange(ctx.db, ctx.user.id, input.newEmail, ctx.publicUrl)
  }),

  /** Ends the link waiting at the new address; the address stays. */
  cancelEmailChange: authedProcedure.mutation(({ ctx }) => cancelEmailChange(ctx.db, ctx.user.id)),

  /** Uses the mailed link (opened in any browser, signed in or not: the link alone proves the new mailbox). */
  confirmEmailChange: publicProcedure.input(tokenInput).mutation(async ({ ctx, input }) => {
    await enforceLimit(ctx, RATE_RULES.passwordResetUse, `email-change-use:${ctx.clientIp}`)
    return confirmEmailChange(ctx.db, input.token, ctx.publicUrl)
  }),
})
