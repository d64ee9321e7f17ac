// The staff's live chat desk (/admin/chat, decision 0099): every staff member reads the queue and the chats; editors
// and up take, answer and end them; admins may take over a chat someone else holds.
import { ADMIN_PAGE_SIZE } from '../../../src-shared/schemas/admin.ts'
import {
  chatIdInput,
  deskAvailableInput,
  staffChatQueueInput,
  staffChatReplyInput,
} from '../../../src-shared/schemas/live-chat.ts'
import type { SessionUser } from '../../auth/types.ts'
import { endChatAsStaff, takeChatAsStaff } from '../../flows/live-chat.ts'
import { postStaffMessage, staffChat, staffChatQueue, waitingChatCount } from '../../live-chat/conversations.ts'
import { deskAvailability, markAtDesk, setDeskAvailability } from '../../live-chat/desk-presence.ts'
import { router, staffProcedure } from '../../trpc/init.ts'
import { actorOf } from './actor.ts'

const staffActor = (user: SessionUser) => ({ ...actorOf(user), role: user.role })

export const adminLiveChatRouter = router({
  queue: staffProcedure('viewer')
    .input(staffChatQueueInput)
    .query(({ ctx, input }) => staffChatQueue(ctx.db, { ...input, pageSize: ADMIN_PAGE_SIZE })),
  /**
   * The desk page of someone who may answer says it is open, every 30 s: /contact then says "online" (0102) while they
   * are available. Answers their availability as kept (another tab may have changed it).
   */
  atDesk: staffProcedure('editor').mutation(({ ctx }) => markAtDesk(ctx.db, ctx.user.id)),
  /** The caller's "Available for chats", as they last set it: the desk opens with it. */
  availability: staffProcedure('editor').query(({ ctx }) => deskAvailability(ctx.db, ctx.user.id)),
  /** "Available for chats" ticked or unticked; kept until changed, so a return to the desk does not tick it again. */
  setAvailable: staffProcedure('editor')
    .input(deskAvailableInput)
    .mutation(({ ctx, input }) => setDeskAvailability(ctx.db, ctx.user.id, input.available)),
  /** The admin menu's "N waiting" beside Live chat. */
  waiting: staffProcedure('viewer').query(async ({ ctx }) => ({ count: await waitingChatCount(ctx.db) })),
  conversation: staffProcedure('viewer')
    .input(chatIdInput)
    .query(({ ctx, input }) => staffChat(ctx.db, input.id)),
  take: staffProcedure('editor')
    .input(chatIdInput)
    .mutation(({ ctx, input }) => takeChatAsStaff(ctx.db, staffActor(ctx.user), input.id)),
  reply: staffProcedure('editor')
    .input(staffChatReplyInput)
    .mutation(({ ctx, input }) => postStaffMessage(ctx.db, ctx.user.id, input.id, input.body)),
  end: staffProcedure('editor')
    .input(chatIdInput)
    .mutation(({ ctx, input }) => endChatAsStaff(ctx.db, staffActor(ctx.user), input.id)),
})
