// A person's own data (issue 28): ask for an export of everything we hold, and list one's exports; delete one's account
// after a cool-off, or cancel that. Both the export and the deletion are confirmed with a fresh proof (the password, an
// app code, or an e-mailed code for accounts without a password), so a stolen session alone cannot take the data. Staff (admin and up) may run both for a person who wrote in (audited). Downloads go through
// /api/account/exports/<id>.zip.
import {
  type ConfirmedAction,
  confirmationCodeInput,
  deleteAccountInput,
  deletionForPersonInput,
  exportForPersonInput,
  requestExportInput,
} from '../../src-shared/schemas/privacy.ts'
import { confirmAction, confirmationMethod, sendConfirmationCode } from '../auth/confirm-action.ts'
import { twoFactorSettings } from '../auth/two-factor.ts'
import { cancelAccountDeletion, deletionStatus, requestAccountDeletion } from '../flows/account-deletion.ts'
import { dataExportsOf, requestDataExport } from '../flows/data-export.ts'
import { passwordsTypedHere } from '../trpc/context.ts'
import { authedProcedure, router, staffProcedure } from '../trpc/init.ts'
import { paceSecurityTries } from '../trpc/security-pace.ts'
import { actorOf } from './admin/actor.ts'

/** What the e-mailed code's mail says it confirms. */
const CONFIRMED_ACTION_TEXT: Record<ConfirmedAction, string> = {
  'delete-account': 'delete your account',
  'export-data': 'download a copy of your data',
  'link-school-sign-in': 'link a school’s sign-in to your account',
  'create-api-key': 'create an API key for a school',
  'add-webhook-endpoint': 'add a webhook endpoint for a school',
  'webhook-secret': 'reveal or rotate a webhook endpoint’s signing secret',
  'change-email': 'move your account to another e-mail address',
}

export const privacyRouter = router({
  exports: authedProcedure.query(({ ctx }) => dataExportsOf(ctx.db, ctx.user.id)),

  /** Queues the export once the person has confirmed it is them (checked before anything is queued). */
  requestExport: authedProcedure.input(requestExportInput).mutation(async ({ ctx, input }) => {
    await paceSecurityTries(ctx, ctx.user.id)
    await confirmAction(ctx.db, ctx.user.id, input, twoFactorSettings(ctx.config), passwordsTypedHere(ctx))
    return requestDataExport(ctx.db, ctx.user.id)
  }),

  requestExportFor: staffProcedure('admin')
    .input(exportForPersonInput)
    .mutation(({ ctx, input }) => requestDataExport(ctx.db, input.userId, actorOf(ctx.user))),

  /** The scheduled deletion (if any), what stands in its way, and how this account confirms. */
  deletion: authedProcedure.query(async ({ ctx }) => ({
    ...(await deletionStatus(ctx.db, ctx.user.id)),
    confirm: await confirmationMethod(ctx.db, ctx.user.id, passwordsTypedHere(ctx)),
  })),

  /** E-mails a single-use code to an account without a password (15 minutes), for an action that needs a proof. */
  sendConfirmationCode: authedProcedure.input(confirmationCodeInput).mutation(async ({ ctx, input }) => {
    await paceSecurityTries(ctx, ctx.user.id)
    await sendConfirmationCode(
      ctx.db,
      ctx.user.id,
      CONFIRMED_ACTION_TEXT[input?.action ?? 'delete-account'],
      passwordsTypedHere(ctx),
    )
    return { ok: true }
  }),

  requestDeletion: authedProcedure.input(deleteAccountInput).mutation(async ({ ctx, input }) => {
    await paceSecurityTries(ctx, ctx.user.id)
    return requestAccountDeletion({
      db: ctx.db,
      userId: ctx.user.id,
      publicUrl: ctx.config.publicUrl,
      proof: input,
      settings: twoFactorSettings(ctx.config),
      passwordHere: passwordsTypedHere(ctx),
      currentSessionId: ctx.session.id,
    })
  }),

  cancelDeletion: authedProcedure.mutation(({ ctx }) => cancelAccountDeletion(ctx.db, ctx.user.id)),

  requestDeletionFor: staffProcedure('admin')
    .input(deletionForPersonInput)
    .mutation(({ ctx, input }) =>
      requestAccountDeletion({
        db: ctx.db,
        userId: input.userId,
        publicUrl: ctx.config.publicUrl,
        staff: actorOf(ctx.user),
      }),
    ),

  cancelDeletionFor: staffProcedure('admin')
    .input(deletionForPersonInput)
    .mutation(({ ctx, input }) => cancelAccountDeletion(ctx.db, input.userId, actorOf(ctx.user))),
})
