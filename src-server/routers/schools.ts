// A creator's school and team (decision 0057). The owner's procedures act on their own school only (ctx.user.id);
// members list the schools they work for; the invitation is any signed-in account's; the public page is anyone's.
// Who may do what is creators/school-access.ts's answer, asked in the flows.
import {
  inviteSchoolMemberInput,
  schoolInviteRefInput,
  schoolInviteTokenInput,
  schoolMemberRefInput,
  schoolMemberRoleInput,
  schoolPageInput,
  schoolRefInput,
  schoolSettingsInput,
} from '../../src-shared/schemas/schools.ts'
import {
  acceptSchoolInvite,
  cancelSchoolInvitation,
  changeSchoolMemberRole,
  describeSchoolInvite,
  inviteSchoolMember,
  leaveSchool,
  memberSchoolCourses,
  mySchoolMemberships,
  publicSchoolPage,
  removeFromSchool,
  resendSchoolInvitation,
  saveSchoolSettings,
  schoolPanel,
} from '../flows/school-team.ts'
import { authedProcedure, creatorProcedure, publicProcedure, router } from '../trpc/init.ts'
import { toCourseCard } from './catalog.ts'

export const schoolsRouter = router({
  /** The owner's school: settings, team, open invitations and the plan's team size. */
  mine: creatorProcedure.query(({ ctx }) => schoolPanel(ctx.db, ctx.user.id, ctx.config.creatorLimits)),

  saveSettings: creatorProcedure
    .input(schoolSettingsInput)
    .mutation(({ ctx, input }) => saveSchoolSettings(ctx.db, ctx.user.id, input)),

  invite: creatorProcedure
    .input(inviteSchoolMemberInput)
    .mutation(({ ctx, input }) => inviteSchoolMember(ctx.db, ctx.limiter, ctx.user, input, ctx.config)),

  /** A new link for an invitation (open or expired): the old one stops working; counted as an invitation. */
  resendInvite: creatorProcedure
    .input(schoolInviteRefInput)
    .mutation(({ ctx, input }) => resendSchoolInvitation(ctx.db, ctx.limiter, ctx.user, input.inviteId, ctx.config)),

  cancelInvite: creatorProcedure
    .input(schoolInviteRefInput)
    .mutation(({ ctx, input }) => cancelSchoolInvitation(ctx.db, ctx.user.id, input.inviteId)),

  setRole: creatorProcedure
    .input(schoolMemberRoleInput)
    .mutation(({ ctx, input }) => changeSchoolMemberRole(ctx.db, ctx.user.id, input.userId, input.role, ctx.config)),

  remove: creatorProcedure
    .input(schoolMemberRefInput)
    .mutation(({ ctx, input }) => removeFromSchool(ctx.db, ctx.user.id, input.userId)),

  /** A member leaves the school's team (any signed-in account, for its own place only: no creator needed). */
  leave: authedProcedure
    .input(schoolRefInput)
    .mutation(({ ctx, input }) => leaveSchool(ctx.db, ctx.user.id, input.schoolId)),

  /** The schools the signed-in person works for as a member, with their role in each. */
  memberships: authedProcedure.query(({ ctx }) => mySchoolMemberships(ctx.db, ctx.user.id)),

  /** A school's courses for a member whose role works on them (instructor, support), with whether they edit them. */
  memberCourses: authedProcedure
    .input(schoolRefInput)
    .query(({ ctx, input }) => memberSchoolCourses(ctx.db, ctx.user.id, input.schoolId)),

  /** The invitation a signed-in person opened from the e-mail (any account). */
  invitation: authedProcedure
    .input(schoolInviteTokenInput)
    .query(({ ctx, input }) => describeSchoolInvite(ctx.db, ctx.user, input.token)),

  acceptInvitation: authedProcedure
    .input(schoolInviteTokenInput)
    .mutation(({ ctx, input }) => acceptSchoolInvite(ctx.db, ctx.user, input.token, ctx.config.creatorLimits)),

  /** The public page /s/{slug}, or null for an unknown slug (the page answers 404). */
  page: publicProcedure.input(schoolPageInput).query(async ({ ctx, input }) => {
    const page = await publicSchoolPage(ctx.db, input.slug)
    if (!page) return null
    return {
      name: page.school.name,
      slug: page.school.slug,
      courses: page.courses.map(toCourseCard),
      bundles: page.bundles.map((b) => ({
        slug: b.slug,
        title: b.title,
        description: b.description,
        priceMinor: b.price_minor,
        currency: b.currency,
        savingPercent: b.savingPercent,
        courseCount: b.courses.length,
      })),
      instructors: page.instructors.map((i) => ({ slug: i.slug, name: i.name, title: i.title, image: i.image_url })),
    }
  }),
})
