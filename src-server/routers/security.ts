// /account/security: the second factor (set up, turn off) and the signed-in sessions (list, end one, end all
// others). TOTP keys go out only while setting up, recovery codes only once, in the answer that turns it on.
import { TRPCError } from '@trpc/server'
import { staffRoleNeedsTwoFactor } from '../../src-shared/roles.ts'
import {
  addPasskeyInput,
  disableTwoFactorInput,
  passkeyOptionsInput,
  removePasskeyInput,
  sessionIdInput,
  twoFactorCodeInput,
} from '../../src-shared/schemas/security.ts'
import { confirmAction, confirmationMethod, sendConfirmationCode } from '../auth/confirm-action.ts'
import { addPasskey, listPasskeys, passkeyRegistrationOptions, relyingParty, removePasskey } from '../auth/passkeys.ts'
import { endOtherSessions, endOwnSession, listSessions } from '../auth/session-list.ts'
import {
  confirmTotpEnrolment,
  disableTwoFactor,
  regenerateRecoveryCodes,
  startTotpEnrolment,
  twoFactorSettings,
  twoFactorStatus,
} from '../auth/two-factor.ts'
import { assertMayAddPasskey, passkeyRefusal } from '../flows/sso-hold.ts'
import { passwordsTypedHere } from '../trpc/context.ts'
import { authedProcedure, router } from '../trpc/init.ts'
import { paceSecurityTries } from '../trpc/security-pace.ts'

export const securityRouter = router({
  overview: authedProcedure.query(async ({ ctx }) => ({
    twoFactor: await twoFactorStatus(ctx.db, ctx.user.id),
    /** True when this account must set up two-factor before using the staff area (STAFF_2FA=required). */
    staffMustEnrol: ctx.config.staffTwoFactor === 'required' && staffRoleNeedsTwoFactor(ctx.user.role),
    sessions: await listSessions(ctx.db, ctx.user.id, ctx.session.id),
    passkeys: await listPasskeys(ctx.db, ctx.user.id),
    /** Why Add a passkey is not offered (a school holds the account to its single sign-on), or null. */
    passkeyRefusal: await passkeyRefusal(ctx.db, ctx.user.id),
    /** How a removal is confirmed: the password (or an app code), or an e-mailed code. */
    confirm: await confirmationMethod(ctx.db, ctx.user.id, passwordsTypedHere(ctx)),
  })),

  /**
   * Options for the browser to make a passkey (the challenge is kept server-side, single use, 2 minutes), after a fresh
   * proof as for removing one: a passkey signs in alone, so a stolen session must not be able to add its own. None
   * while a school holds the account to its single sign-on (decision 0130): it could not sign in.
   */
  passkeyOptions: authedProcedure.input(passkeyOptionsInput).mutation(async ({ ctx, input }) => {
    await paceSecurityTries(ctx, ctx.user.id)
    await assertMayAddPasskey(ctx.db, ctx.user.id)
    await confirmAction(ctx.db, ctx.user.id, input, twoFactorSettings(ctx.config), passwordsTypedHere(ctx))
    return passkeyRegistrationOptions(ctx.db, ctx.user, relyingParty(ctx.config.publicUrl, ctx.req?.headers.host))
  }),

  addPasskey: authedProcedure.input(addPasskeyInput).mutation(async ({ ctx, input }) => {
    await paceSecurityTries(ctx, ctx.user.id)
    // Asked again: the requirement may have come on since the options were given.
    await assertMayAddPasskey(ctx.db, ctx.user.id)
    const rp = relyingParty(ctx.config.publicUrl, ctx.req?.headers.host)
    // The schema bounds the JSON; SimpleWebAuthn checks it (its own types are wider than zod's output).
    return addPasskey(ctx.db, ctx.user.id, input.name, input.response as never, rp)
  }),

  /** Removing a passkey needs a fresh proof: the password, an app code, or (no password) an e-mailed code. */
  removePasskey: authedProcedure.input(removePasskeyInput).mutation(async ({ ctx, input }) => {
    await paceSecurityTries(ctx, ctx.user.id)
    await confirmAction(ctx.db, ctx.user.id, input, twoFactorSettings(ctx.config), passwordsTypedHere(ctx))
    await removePasskey(ctx.db, ctx.user.id, input.passkeyId)
    return { ok: true }
  }),

  /** E-mails a single-use code to an account without a password, to confirm a passkey or two-factor change. */
  sendRemovalCode: authedProcedure.mutation(async ({ ctx }) => {
    await paceSecurityTries(ctx, ctx.user.id)
    await sendConfirmationCode(
      ctx.db,
      ctx.user.id,
      'add or remove a passkey, or set up two-factor authentication',
      passwordsTypedHere(ctx),
    )
    return { ok: true }
  }),

  /**
   * A new key for the authenticator app (its otpauth:// address for the QR code, and the key to type by hand), after a
   * fresh proof as for adding a passkey: two-factor outlives a password reset, so a stolen session must not be able
   * to turn on its own and lock the owner out.
   */
  startTotp: authedProcedure.input(passkeyOptionsInput).mutation(async ({ ctx, input }) => {
    await paceSecurityTries(ctx, ctx.user.id)
    await confirmAction(ctx.db, ctx.user.id, input, twoFactorSettings(ctx.config), passwordsTypedHere(ctx))
    return startTotpEnrolment(ctx.db, ctx.user, twoFactorSettings(ctx.config))
  }),

  /** Turns two-factor on with the app's first code; the only answer that holds the recovery codes. */
  confirmTotp: authedProcedure.input(twoFactorCodeInput).mutation(async ({ ctx, input }) => {
    await paceSecurityTries(ctx, ctx.user.id)
    const recoveryCodes = await confirmTotpEnrolment(ctx.db, ctx.user.id, input.code, twoFactorSettings(ctx.config))
    return { recoveryCodes }
  }),

  /** Ten new recovery codes (the old ones stop working), after the password and a code; shown once. */
  newRecoveryCodes: authedProcedure.input(disableTwoFactorInput).mutation(async ({ ctx, input }) => {
    await paceSecurityTries(ctx, ctx.user.id)
    const recoveryCodes = await regenerateRecoveryCodes(ctx.db, ctx.user.id, input, twoFactorSettings(ctx.config))
    return { recoveryCodes }
  }),

  disableTotp: authedProcedure.input(disableTwoFactorInput).mutation(async ({ ctx, input }) => {
    await paceSecurityTries(ctx, ctx.user.id)
    await disableTwoFactor(ctx.db, ctx.user.id, input, twoFactorSettings(ctx.config))
    return { ok: true }
  }),

  signOutSession: authedProcedure.input(sessionIdInput).mutation(async ({ ctx, input }) => {
    if (!(await endOwnSession(ctx.db, ctx.user.id, input.sessionId))) {
      throw new TRPCError({ code: 'NOT_FOUND', message: 'That session has already ended.' })
    }
    return { ok: true, current: input.sessionId === ctx.session.id }
  }),

  signOutOthers: authedProcedure.mutation(async ({ ctx }) => ({
    ended: await endOtherSessions(ctx.db, ctx.user.id, ctx.session.id),
  })),
})
