// Live chat on /contact (decision 0099): one line per procedure; the hours and limits are the flow's, whose chat it
// is the leaf's (every write names the member).
import { chatIdInput, sendChatInput, startChatInput } from '../../src-shared/schemas/live-chat.ts'
import {
  chatAvailability,
  endMemberChat,
  leaveChatAsMessage,
  memberChatView,
  sendMemberChat,
  startMemberChat,
} from '../flows/live-chat.ts'
import { authedProcedure, publicProcedure, router } from '../trpc/init.ts'

export const liveChatRouter = router({
  /** Whether the chat is open and someone is at the desk (anyone may ask: the page shows it to visitors too). */
  availability: publicProcedure.query(({ ctx }) => chatAvailability(ctx)),
  /** The member's open or just-ended chat with its messages; the page asks again every few seconds. */
  mine: authedProcedure.query(({ ctx }) => memberChatView(ctx, ctx.user.id)),
  start: authedProcedure.input(startChatInput).mutation(({ ctx, input }) => startMemberChat(ctx, ctx.user.id, input)),
  send: authedProcedure.input(sendChatInput).mutation(({ ctx, input }) => sendMemberChat(ctx, ctx.user.id, input)),
  end: authedProcedure.input(chatIdInput).mutation(({ ctx, input }) => endMemberChat(ctx.db, ctx.user.id, input.id)),
  /** Nobody has joined yet: the member leaves the chat as a message to the support inbox (decision 0101). */
  leaveMessage: authedProcedure
    .input(chatIdInput)
    .mutation(({ ctx, input }) => leaveChatAsMessage(ctx.db, input.id, ctx.user.id)),
})
