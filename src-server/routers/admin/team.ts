// Team Members. Everyone on the team can see it; only admins (and the owner) invite, change roles or remove.
// Accepting an invitation is public: the single-use token in the e-mailed link is the credential.
import { z } from 'zod'
import { acceptInviteInput, inviteInput, teamRoleSchema } from '../../../src-shared/schemas/admin.ts'
import { startSession } from '../../auth/login.ts'
import { changeTeamRole, removeTeamMember } from '../../flows/team-members.ts'
import {
  acceptInvitation,
  describeInvitation,
  inviteMember,
  listPendingInvitations,
  revokeInvitation,
} from '../../team/invitations.ts'
import { listTeam } from '../../team/members.ts'
import { publicProcedure, router, staffProcedure } from '../../trpc/init.ts'
import { actorOf } from './actor.ts'

const tokenInput = z.object({ token: z.string().trim().min(10).max(200) })

export const adminTeamRouter = router({
  list: staffProcedure('viewer').query(({ ctx }) => listTeam(ctx.db)),

  invite: staffProcedure('admin')
    .input(inviteInput)
    .mutation(async ({ ctx, input }) => {
      const invitation = await inviteMember(ctx.db, actorOf(ctx.user), ctx.config.publicUrl, input)
      // Without SMTP_URL the mail is only printed and kept in the outbox: the dialog must not say it was e-mailed.
      return { ...invitation, mailed: ctx.config.mailDelivery === 'smtp' }
    }),

  changeRole: staffProcedure('admin')
    .input(z.object({ userId: z.uuid(), role: teamRoleSchema }))
    .mutation(({ ctx, input }) => changeTeamRole(ctx.db, actorOf(ctx.user), input.userId, input.role)),

  remove: staffProcedure('admin')
    .input(z.object({ userId: z.uuid() }))
    .mutation(async ({ ctx, input }) => {
      await removeTeamMember(ctx.db, actorOf(ctx.user), input.userId)
      return { userId: input.userId }
    }),

  pendingInvitations: staffProcedure('admin').query(({ ctx }) => listPendingInvitations(ctx.db)),

  revokeInvitation: staffProcedure('admin')
    .input(z.object({ id: z.uuid() }))
    .mutation(async ({ ctx, input }) => {
      await revokeInvitation(ctx.db, actorOf(ctx.user), input.id)
      return { id: input.id }
    }),

  invitation: publicProcedure.input(tokenInput).query(({ ctx, input }) => describeInvitation(ctx.db, input.token)),

  acceptInvitation: publicProcedure.input(acceptInviteInput).mutation(async ({ ctx, input }) => {
    const userId = await acceptInvitation(ctx.db, input.token, input.password)
    await startSession(ctx.db, ctx.res, ctx.config, userId, true, {
      userAgent: ctx.req?.headers['user-agent'],
      clientIp: ctx.clientIp,
    })
    return { ok: true }
  }),
})
