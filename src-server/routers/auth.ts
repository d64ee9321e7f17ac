// Sign-up, log-in, log-out, e-mail verification and password reset. Every rule is checked here; the client
// only shows the answers. Abuse limits count per client address (and per e-mail for log-in).
import { TRPCError } from '@trpc/server'
import { AUTH_MESSAGES } from '../../src-shared/auth.ts'
import {
  changePasswordInput,
  emailOnlyInput,
  loginInput,
  resetPasswordInput,
  signupInput,
  verifyEmailInput,
} from '../../src-shared/schemas/auth.ts'
import { passkeySignInInput, twoFactorCodeInput } from '../../src-shared/schemas/security.ts'
import {
  changePassword,
  requestPasswordReset,
  resendVerification,
  resetPassword,
  signUp,
  verifyEmail,
} from '../auth/accounts.ts'
import { clearSessionCookie } from '../auth/cookies.ts'
import { authenticateWithPassword, startSession } from '../auth/login.ts'
import { loadMe } from '../auth/me.ts'
import { PASSKEY_MESSAGES, passkeySignInOptions, relyingParty, verifyPasskeySignIn } from '../auth/passkeys.ts'
import { queuePasswordChangedNotice } from '../auth/security-mails.ts'
import { invalidateSession } from '../auth/session.ts'
import { completeTwoFactorSignIn, finishFirstStep } from '../auth/sign-in.ts'
import { setSignupBrowserCookie, signupBrowserOf, signupBrowserSecret } from '../auth/signup-browser.ts'
import { isCreator } from '../creators/repository.ts'
import { scheduledDeletionOf } from '../flows/account-deletion.ts'
import { giftsWaitingFor } from '../flows/gift-delivery.ts'
import { ssoForHost } from '../flows/school-sso.ts'
import { signInUnlessHeld } from '../flows/sso-hold.ts'
import { loginFailuresFromAddress, reserveAttempt } from '../security/attempts.ts'
import { RATE_RULES } from '../security/rate-limit.ts'
import { type Context, passwordsTypedHere } from '../trpc/context.ts'
import { authedProcedure, publicProcedure, router } from '../trpc/init.ts'
import { enforceLimit, limiterDown } from '../trpc/security-pace.ts'

/**
 * Under a school's own domain no password is typed (decision 0063): its owner controls where the name points. Log-in
 * and sign-up are handed to the platform's host (http/sign-in-handoff.ts); password changes and resets happen there.
 */
function refusePasswordsOnSchoolDomain(ctx: Context) {
  if (!passwordsTypedHere(ctx)) {
    throw new TRPCError({ code: 'FORBIDDEN', message: AUTH_MESSAGES.passwordOnPlatform })
  }
}

/** The log-in's answer: the user, and the date their account is to be deleted (the page then offers to cancel). */
async function signedIn(ctx: Context, userId: string) {
  const me = await loadMe(ctx.db, userId)
  return me ? { ...me, deletionScheduledFor: await scheduledDeletionOf(ctx.db, userId) } : null
}

export const authRouter = router({
  /** The signed-in user, or null for a visitor. */
  me: publicProcedure.query(async ({ ctx }) => {
    if (!ctx.user) return null
    const [me, creator] = await Promise.all([loadMe(ctx.db, ctx.user.id), isCreator(ctx.db, ctx.user.id)])
    // A creator is a capability of the account (the creators table), never implied by a staff role.
    return me ? { ...me, isCreator: creator } : null
  }),

  signup: publicProcedure.input(signupInput).mutation(async ({ ctx, input }) => {
    refusePasswordsOnSchoolDomain(ctx)
    await enforceLimit(ctx, RATE_RULES.signup, `signup:${ctx.clientIp}`)
    // The browser that signs up: its link applies the sign-up there without asking for the password again.
    const browserSecret = signupBrowserSecret(ctx.req)
    try {
      await signUp(ctx.db, input, ctx.publicUrl, browserSecret)
    } catch (error) {
      throw new TRPCError({ code: 'INTERNAL_SERVER_ERROR', message: AUTH_MESSAGES.signupFailed, cause: error })
    }
    if (ctx.res) setSignupBrowserCookie(ctx.res, browserSecret, ctx.config.cookieSecure)
    return { message: AUTH_MESSAGES.signupSuccess }
  }),

  login: publicProcedure.input(loginInput).mutation(async ({ ctx, input }) => {
    refusePasswordsOnSchoolDomain(ctx)
    const email = input.email.toLowerCase()
    await enforceLimit(ctx, RATE_RULES.login, `login:${ctx.clientIp}:${email}`)
    await enforceLimit(ctx, RATE_RULES.loginPerEmail, `login-email:${email}`)
    const attempt = await reserveAttempt(
      ctx.limiter,
      [loginFailuresFromAddress(ctx.clientIp)],
      AUTH_MESSAGES.tooManyAttempts,
      limiterDown(ctx),
    )
    const user = await authenticateWithPassword(ctx.db, input.email, input.password)
    // One answer for an unknown e-mail and a wrong password.
    if (!user) throw new TRPCError({ code: 'UNAUTHORIZED', message: AUTH_MESSAGES.invalidCredentials })
    await attempt.release() // the password was right: not a failure from this address
    if (!user.emailVerified) throw new TRPCError({ code: 'FORBIDDEN', message: AUTH_MESSAGES.emailNotVerified })
    // A member of a school that requires its single sign-on signs in there (decision 0062). An account with a second
    // factor gets no session yet: the code step (verifyTwoFactor) gives it.
    const step = await signInUnlessHeld(ctx.db, user.id, async (trx) => {
      if (ctx.session) await invalidateSession(trx, ctx.session.id)
      return finishFirstStep({ ...ctx, db: trx }, user.id, input.remember)
    })
    if (step === 'two-factor') return { twoFactor: true as const }
    return signedIn(ctx, user.id)
  }),

  /**
   * The second step of a log-in (shop, staff or OAuth): this browser's pending log-in and a code from the
   * authenticator app (or a recovery code, once) give the session. Ten wrong codes lock the step for 15 minutes.
   */
  verifyTwoFactor: publicProcedure.input(twoFactorCodeInput).mutation(async ({ ctx, input }) => {
    await enforceLimit(ctx, RATE_RULES.twoFactorPerAddress, `two-factor:${ctx.clientIp}`)
    const userId = await completeTwoFactorSignIn(ctx, input.code)
    return signedIn(ctx, userId)
  }),

  /** Options for "Sign in with a passkey" (any of the site's passkeys; the challenge kept server-side). */
  passkeyOptions: publicProcedure.mutation(async ({ ctx }) => {
    await enforceLimit(ctx, RATE_RULES.login, `passkey-options:${ctx.clientIp}`)
    return passkeySignInOptions(ctx.db, relyingParty(ctx.config.publicUrl, ctx.req?.headers.host))
  }),

  /**
   * Sign-in with a passkey: unlocked on the device (user verification), it counts as both factors, so the session
   * starts at once, as after the code step. The answer is the log-in's (with a scheduled deletion's date).
   */
  passkeySignIn: publicProcedure.input(passkeySignInInput).mutation(async ({ ctx, input }) => {
    await enforceLimit(ctx, RATE_RULES.login, `passkey:${ctx.clientIp}`)
    const rp = relyingParty(ctx.config.publicUrl, ctx.req?.headers.host)
    const userId = await verifyPasskeySignIn(ctx.db, input.response as never, rp)
    if (!userId) throw new TRPCError({ code: 'UNAUTHORIZED', message: PASSKEY_MESSAGES.failed })
    // A passkey is no way around a school's required single sign-on (decision 0062).
    await signInUnlessHeld(ctx.db, userId, async (trx) => {
      if (ctx.session) await invalidateSession(trx, ctx.session.id)
      await startSession(trx, ctx.res, ctx.config, userId, input.remember, {
        userAgent: ctx.req?.headers['user-agent'],
        clientIp: ctx.clientIp,
      })
    })
    return signedIn(ctx, userId)
  }),

  logout: publicProcedure.mutation(async ({ ctx }) => {
    if (ctx.session) await invalidateSession(ctx.db, ctx.session.id)
    if (ctx.res) clearSessionCookie(ctx.res, { secure: ctx.config.cookieSecure })
    return { ok: true }
  }),

  verifyEmail: publicProcedure.input(verifyEmailInput).mutation(async ({ ctx, input }) => {
    // A typed password is hashed and compared: bounded like a log-in's (decision 0134).
    if (input.password) await enforceLimit(ctx, RATE_RULES.login, `verify-email:${ctx.clientIp}`)
    const outcome = await verifyEmail(ctx.db, input.token, {
      browserSecret: signupBrowserOf(ctx.req),
      password: input.password,
    })
    if (!outcome) throw new TRPCError({ code: 'BAD_REQUEST', message: AUTH_MESSAGES.badVerifyLink })
    if ('refused' in outcome) {
      const message =
        outcome.refused === 'password-needed' ? AUTH_MESSAGES.signupPasswordNeeded : AUTH_MESSAGES.signupPasswordWrong
      throw new TRPCError({ code: 'BAD_REQUEST', message })
    }
    const { userId } = outcome
    // A gift mailed to the address now proven waits for its claim: the page leads the log-in there, even in a browser
    // that never saw the gift's link (decision 0146). Said to the mailbox's owner only: the link came to it.
    const giftWaiting = (await giftsWaitingFor(ctx.db, userId)).length > 0
    return { message: AUTH_MESSAGES.emailVerified, giftWaiting }
  }),

  /**
   * What the sign-in forms may offer: the OAuth providers this server is configured for, on the platform's host only
   * (their return addresses are the platform's, and a session belongs to the site it is made on); on a school's own
   * domain, the school's single sign-on when it offers one.
   */
  providers: publicProcedure.query(async ({ ctx }) => {
    if (passwordsTypedHere(ctx)) {
      return { oauth: ctx.config.oauthProviders, school: null, passwordsHandedOff: false, platformUrl: null }
    }
    return {
      oauth: [] as typeof ctx.config.oauthProviders,
      school: await ssoForHost(ctx.db, ctx.config, ctx.req?.host),
      /** Log-in and sign-up go through the platform's page (http/sign-in-handoff.ts): no password form here. */
      passwordsHandedOff: true,
      /** Where passwords are typed (the security page links there to change one). */
      platformUrl: ctx.config.publicUrl,
    }
  }),

  /** A new verification link for an unverified account; the same answer whether or not there is one. */
  resendVerification: publicProcedure.input(emailOnlyInput).mutation(async ({ ctx, input }) => {
    const email = input.email.toLowerCase()
    await enforceLimit(ctx, RATE_RULES.verificationResend, `verify-resend:${ctx.clientIp}`)
    await enforceLimit(ctx, RATE_RULES.verificationResendPerEmail, `verify-resend-email:${email}`)
    await resendVerification(ctx.db, input.email, ctx.publicUrl, signupBrowserOf(ctx.req))
    return { message: AUTH_MESSAGES.verificationResent }
  }),

  /** The same answer whether or not the address has an account. */
  requestPasswordReset: publicProcedure.input(emailOnlyInput).mutation(async ({ ctx, input }) => {
    await enforceLimit(ctx, RATE_RULES.passwordReset, `reset:${ctx.clientIp}`)
    await enforceLimit(ctx, RATE_RULES.passwordResetPerEmail, `reset-email:${input.email.toLowerCase()}`)
    // The new password is typed on the platform's host, never under a school's domain.
    await requestPasswordReset(ctx.db, input.email, ctx.config.publicUrl)
    return { message: AUTH_MESSAGES.resetRequested }
  }),

  resetPassword: publicProcedure.input(resetPasswordInput).mutation(async ({ ctx, input }) => {
    refusePasswordsOnSchoolDomain(ctx)
    await enforceLimit(ctx, RATE_RULES.passwordResetUse, `reset-use:${ctx.clientIp}`)
    const userId = await resetPassword(ctx.db, input.token, input.password)
    if (!userId) throw new TRPCError({ code: 'BAD_REQUEST', message: AUTH_MESSAGES.badResetLink })
    await queuePasswordChangedNotice(ctx.db, userId, ctx.publicUrl)
    if (ctx.res) clearSessionCookie(ctx.res, { secure: ctx.config.cookieSecure })
    return { message: AUTH_MESSAGES.resetDone }
  }),

  /** Ends every session of the user, then signs this device in again with a fresh session. */
  changePassword: authedProcedure.input(changePasswordInput).mutation(async ({ ctx, input }) => {
    refusePasswordsOnSchoolDomain(ctx)
    await enforceLimit(ctx, RATE_RULES.login, `change-password:${ctx.user.id}`)
    const changed = await changePassword(ctx.db, ctx.user.id, input.currentPassword, input.newPassword)
    if (!changed) throw new TRPCError({ code: 'BAD_REQUEST', message: AUTH_MESSAGES.wrongCurrentPassword })
    await startSession(ctx.db, ctx.res, ctx.config, ctx.user.id, ctx.session.remember ?? true, {
      userAgent: ctx.req?.headers['user-agent'],
      clientIp: ctx.clientIp,
      notify: false,
    })
    await queuePasswordChangedNotice(ctx.db, ctx.user.id, ctx.publicUrl)
    return { message: AUTH_MESSAGES.passwordChanged }
  }),
})
