// /admin/customers: one customer's account, plan, orders, courses, service orders and messages, for every staff role
// (each of those is already theirs to read on its own page), each look-up audited. The address goes as a POST
// (decision 0155). Admins can start moving a customer to another address, or end that move (decision 0158), and
// suspend an account or lift its suspension (decision 0160), and sign a customer out everywhere (decision 0162). Editors write notes about a customer (decision 0161).
import {
  customerEmailChangeInput,
  customerIdInput,
  customerLookupInput,
  customerNoteIdInput,
  customerNoteInput,
  customerSuspensionInput,
} from '../../../src-shared/schemas/admin.ts'
import { liftSuspension, suspendCustomer } from '../../flows/account-suspension.ts'
import { addCustomerNote, deleteCustomerNote } from '../../flows/customer-notes.ts'
import { customerOverview } from '../../flows/customer-overview.ts'
import { cancelEmailChangeForCustomer, startEmailChangeForCustomer } from '../../flows/email-change.ts'
import { signOutCustomerEverywhere } from '../../flows/staff-sign-out.ts'
import { router, staffProcedure } from '../../trpc/init.ts'
import { actorOf } from './actor.ts'

export const adminCustomersRouter = router({
  find: staffProcedure('viewer')
    .input(customerLookupInput)
    .query(({ ctx, input }) => customerOverview(ctx.db, actorOf(ctx.user), input.customer)),
  startEmailChange: staffProcedure('admin')
    .input(customerEmailChangeInput)
    .mutation(({ ctx, input }) => startEmailChangeForCustomer(ctx.db, actorOf(ctx.user), input, ctx.config.publicUrl)),
  cancelEmailChange: staffProcedure('admin')
    .input(customerIdInput)
    .mutation(({ ctx, input }) => cancelEmailChangeForCustomer(ctx.db, actorOf(ctx.user), input.customerId)),
  addNote: staffProcedure('editor')
    .input(customerNoteInput)
    .mutation(({ ctx, input }) => addCustomerNote(ctx.db, ctx.user, input)),
  deleteNote: staffProcedure('editor')
    .input(customerNoteIdInput)
    .mutation(({ ctx, input }) => deleteCustomerNote(ctx.db, ctx.user, input.noteId)),
  suspend: staffProcedure('admin')
    .input(customerSuspensionInput)
    .mutation(({ ctx, input }) =>
      // The member's mail links to the platform's site, as staff's mails do (not the host staff came on).
      suspendCustomer({ db: ctx.db, stripe: ctx.stripe, publicUrl: ctx.config.publicUrl }, actorOf(ctx.user), input),
    ),
  signOutEverywhere: staffProcedure('admin')
    .input(customerIdInput)
    .mutation(({ ctx, input }) =>
      signOutCustomerEverywhere(ctx.db, actorOf(ctx.user), input.customerId, ctx.config.publicUrl),
    ),
  liftSuspension: staffProcedure('admin')
    .input(customerIdInput)
    .mutation(({ ctx, input }) => liftSuspension(ctx.db, actorOf(ctx.user), input.customerId, ctx.config.publicUrl)),
})
