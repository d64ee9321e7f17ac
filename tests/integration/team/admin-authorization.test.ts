// The authorisation matrix: every admin procedure, called as each kind of user, is allowed or refused exactly as
// this table says. The procedures are read from the router itself, so a new admin procedure that is missing
// from the table fails this test until someone decides (and the server enforces) who may call it.
import { TRPCError } from '@trpc/server'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { DatabaseHandle } from '../../../src-server/kernel/db.ts'
import { appRouter } from '../../../src-server/routers/_app.ts'
import type { Role } from '../../../src-shared/roles.ts'
import { createTestDatabase } from '../../support/db.ts'
import { callerAs, createUser } from '../../support/factories.ts'

type Access = 'public' | Exclude<Role, 'customer'>

const EXPECTED: Record<string, Access> = {
  'admin.session.login': 'public',
  'admin.session.logout': 'public',
  'admin.session.me': 'viewer',
  'admin.dashboard.summary': 'viewer',
  'admin.courses.list': 'viewer',
  'admin.courses.create': 'editor',
  'admin.courses.update': 'editor',
  'admin.courses.setFeatured': 'editor',
  'admin.courses.lessonContent': 'editor',
  'admin.courses.updateLessonContent': 'editor',
  'admin.courses.delete': 'editor',
  'admin.categories.list': 'viewer',
  'admin.categories.create': 'editor',
  'admin.categories.update': 'editor',
  'admin.categories.delete': 'editor',
  'admin.team.list': 'viewer',
  'admin.team.invite': 'admin',
  'admin.team.changeRole': 'admin',
  'admin.team.remove': 'admin',
  'admin.team.pendingInvitations': 'admin',
  'admin.team.revokeInvitation': 'admin',
  // The invitee has no account yet: the single-use token is the credential.
  'admin.team.invitation': 'public',
  'admin.team.acceptInvitation': 'public',
  'admin.audit.list': 'admin',
  'admin.orders.list': 'viewer',
  'admin.orders.markPaid': 'admin',
  'admin.orders.cancel': 'admin',
  'admin.orders.detail': 'viewer',
  'admin.orders.refund': 'admin',
  'admin.orders.requests': 'viewer',
  'admin.orders.decideRequest': 'admin',
  'admin.orders.assignRefundLines': 'admin',
  'admin.orders.endMembership': 'admin',
  // Bodies hold single-use links (verification, invitations): admins and the owner only.
  'admin.outbox.list': 'admin',
  'admin.outbox.message': 'admin',
  'admin.outbox.resend': 'admin',
  // Contact messages (the support inbox): staff read them; editors and up mark them answered; admins assign managers.
  'admin.support.inbox': 'viewer',
  // One customer's account, plan, orders, courses, service orders and messages (decision 0155).
  'admin.customers.find': 'viewer',
  'admin.customers.startEmailChange': 'admin',
  'admin.customers.cancelEmailChange': 'admin',
  'admin.customers.addNote': 'editor',
  'admin.customers.deleteNote': 'editor',
  'admin.customers.suspend': 'admin',
  'admin.customers.liftSuspension': 'admin',
  'admin.customers.signOutEverywhere': 'admin',
  'admin.support.markAnswered': 'editor',
  'admin.support.reply': 'editor',
  'admin.support.replies': 'viewer',
  'admin.support.managers': 'viewer',
  'admin.support.assignManager': 'admin',
  'admin.support.removeManager': 'admin',
  // Live chat: staff read the desk; editors and up take, answer and end chats (admins may take over).
  'admin.liveChat.queue': 'viewer',
  'admin.liveChat.atDesk': 'editor',
  'admin.liveChat.availability': 'editor',
  'admin.liveChat.setAvailable': 'editor',
  'admin.liveChat.waiting': 'viewer',
  'admin.liveChat.conversation': 'viewer',
  'admin.liveChat.take': 'editor',
  'admin.liveChat.reply': 'editor',
  'admin.liveChat.end': 'editor',
  'admin.serviceOrders.list': 'viewer',
  'admin.serviceOrders.detail': 'viewer',
  'admin.serviceOrders.markRead': 'viewer',
  'admin.serviceOrders.sendMessage': 'editor',
  'admin.serviceOrders.start': 'editor',
  'admin.serviceOrders.reopenBrief': 'editor',
  'admin.serviceOrders.deliver': 'editor',
  'admin.serviceOrders.deliverReport': 'editor',
  'admin.serviceOrders.assign': 'admin',
  'admin.serviceOrders.cancel': 'admin',
  'admin.reviews.list': 'viewer',
  'admin.reviews.setHidden': 'editor',
  // Private messages: reported threads only, editors and up (issue 34); the house courses' threads (decision 0140).
  'admin.instructorMessages.overview': 'editor',
  'admin.instructorMessages.houseInbox': 'editor',
  'admin.instructorMessages.thread': 'editor',
  'admin.courseReviews.list': 'viewer',
  'admin.courseReviews.detail': 'viewer',
  'admin.courseReviews.lesson': 'viewer',
  'admin.courseReviews.approve': 'editor',
  'admin.courseReviews.requestChanges': 'editor',
  'admin.creatorApplications.list': 'viewer',
  'admin.creatorApplications.detail': 'viewer',
  'admin.creatorApplications.approve': 'admin',
  'admin.creatorApplications.decline': 'admin',
  'admin.finance.overview': 'admin',
  'admin.finance.setPaused': 'super_admin',
  'admin.coupons.list': 'viewer',
  'admin.coupons.create': 'editor',
  'admin.coupons.disable': 'editor',
  'admin.coupons.enable': 'editor',
}

const CALLERS = ['visitor', 'customer', 'viewer', 'editor', 'admin', 'super_admin'] as const
type CallerKind = (typeof CALLERS)[number]
const RANK: Record<CallerKind, number> = { visitor: 0, customer: 1, viewer: 2, editor: 3, admin: 4, super_admin: 5 }

function allowed(access: Access, who: CallerKind): boolean {
  return access === 'public' || RANK[who] >= RANK[access]
}

const adminProcedures = Object.keys(appRouter._def.procedures).filter((path) => path.startsWith('admin.'))

let database: DatabaseHandle
beforeAll(async () => {
  database = await createTestDatabase()
})
afterAll(async () => {
  await database.close()
})

/** Calls a procedure by path with an input that can never succeed, so nothing changes and only the gate shows. */
async function outcome(who: CallerKind, path: string): Promise<string> {
  const user = who === 'visitor' ? null : await createUser(database.db, { role: who })
  const caller = (await callerAs(database.db, user)) as unknown as Record<string, unknown>
  const procedure = path.split('.').reduce<unknown>((node, key) => (node as Record<string, unknown>)[key], caller)
  try {
    await (procedure as (input: unknown) => Promise<unknown>)({ __invalid: true, id: 7 })
    return 'OK'
  } catch (error) {
    expect(error).toBeInstanceOf(TRPCError)
    return (error as TRPCError).code
  }
}

describe('admin authorisation matrix', () => {
  it('lists every admin procedure in the table, and nothing that no longer exists', () => {
    expect(adminProcedures.length).toBeGreaterThan(10)
    expect(adminProcedures.filter((path) => !(path in EXPECTED))).toEqual([])
    expect(Object.keys(EXPECTED).filter((path) => !adminProcedures.includes(path))).toEqual([])
  })

  it('tells a visitor to sign in and a shopper that staff only may', async () => {
    const refusal = async (who: 'visitor' | 'customer' | 'editor') => {
      const user = who === 'visitor' ? null : await createUser(database.db, { role: who })
      const error = await (await callerAs(database.db, user)).admin.orders.markPaid({ id: 'x' }).catch((e) => e)
      return { code: (error as TRPCError).code, message: (error as TRPCError).message }
    }
    expect(await refusal('visitor')).toEqual({ code: 'UNAUTHORIZED', message: 'User not authenticated' })
    expect(await refusal('customer')).toEqual({ code: 'FORBIDDEN', message: 'You do not have permission to do that' })
    expect(await refusal('editor')).toEqual({ code: 'FORBIDDEN', message: 'You do not have permission to do that' })
  })

  for (const path of adminProcedures) {
    it(`${path}: ${EXPECTED[path] ?? 'MISSING FROM TABLE'}`, async () => {
      const access = EXPECTED[path]
      expect(access, `${path} has no entry in the expected-role table`).toBeDefined()
      for (const who of CALLERS) {
        const code = await outcome(who, path)
        if (allowed(access!, who)) {
          expect(['UNAUTHORIZED', 'FORBIDDEN'], `${who} should reach ${path}`).not.toContain(code)
        } else {
          expect(code, `${who} must be refused ${path}`).toBe(who === 'visitor' ? 'UNAUTHORIZED' : 'FORBIDDEN')
        }
      }
    })
  }
})
