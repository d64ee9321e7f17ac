// Live chat on /contact (decisions 0099, 0103): one line per procedure; the hours and limits are the flow's, whose chat
// it is the leaf's (every write names the member, or the visitor their cookie holds the token of).
import {
  chatIdInput,
  sendChatInput,
  startChatInput,
  startVisitorChatInput,
} from '../../src-shared/schemas/live-chat.ts'
import {
  askerOf,
  chatAvailability,
  chatOwnerOf,
  endMemberChat,
  leaveChatAsMessage,
  memberChatView,
  sendMemberChat,
  startMemberChat,
  startVisitorChatAs,
} from '../flows/live-chat.ts'
import { authedProcedure, publicProcedure, router } from '../trpc/init.ts'

export const liveChatRouter = router({
  /** Whether the chat is open and someone is at the desk (anyone may ask: the page shows it to visitors too). */
  availability: publicProcedure.query(({ ctx }) => chatAvailability(ctx)),
  /** The caller's open or just-ended chat with its messages (none for a visitor without one); asked every few seconds. */
  mine: publicProcedure.query(({ ctx }) => memberChatView(ctx, chatOwnerOf(ctx))),
  start: authedProcedure.input(startChatInput).mutation(({ ctx, input }) => startMemberChat(ctx, ctx.user.id, input)),
  /** A visitor who is not signed in starts a chat with their name and address; a cookie holds it (decision 0103). */
  startAsVisitor: publicProcedure
    .input(startVisitorChatInput)
    .mutation(({ ctx, input }) => startVisitorChatAs(ctx, input)),
  send: publicProcedure.input(sendChatInput).mutation(({ ctx, input }) => sendMemberChat(ctx, askerOf(ctx), input)),
  end: publicProcedure.input(chatIdInput).mutation(({ ctx, input }) => endMemberChat(ctx.db, askerOf(ctx), input.id)),
  /** Nobody has joined yet: the asker leaves the chat as a message to the support inbox (decision 0101). */
  leaveMessage: publicProcedure
    .input(chatIdInput)
    .mutation(({ ctx, input }) => leaveChatAsMessage(ctx.db, input.id, askerOf(ctx))),
})
