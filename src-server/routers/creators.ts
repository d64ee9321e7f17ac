// Applying to teach (any signed-in customer) and a creator's own profile (creators only). Every rule is checked
// here or below; the pages only show the answers.
import {
  APPLICATION_MESSAGES,
  applicationInput,
  instructorSlugInput,
  profileInput,
} from '../../src-shared/schemas/creators.ts'
import { myApplication, submitApplication as storeApplication } from '../creators/applications.ts'
import { ownProfile } from '../creators/profiles.ts'
import { updateCreatorProfile } from '../flows/creator-profile.ts'
import { instructorPage } from '../flows/instructor-profile.ts'
import { reserveAttempt } from '../security/attempts.ts'
import { RATE_RULES } from '../security/rate-limit.ts'
import { authedProcedure, creatorProcedure, publicProcedure, router } from '../trpc/init.ts'
import { toCourseCard } from './catalog.ts'

export const creatorsRouter = router({
  /** Each submission stores a row for staff: counted per person and per client address. */
  submitApplication: authedProcedure.input(applicationInput).mutation(async ({ ctx, input }) => {
    await reserveAttempt(
      ctx.limiter,
      [
        { rule: RATE_RULES.application, key: `application:${ctx.user.id}` },
        { rule: RATE_RULES.application, key: `application-ip:${ctx.clientIp}` },
      ],
      APPLICATION_MESSAGES.tooMany,
      (error) => ctx.log.warn({ err: error }, 'rate limiter unavailable; application allowed'),
    )
    const { id } = await storeApplication(ctx.db, ctx.storage, ctx.user.id, input)
    return { id, message: APPLICATION_MESSAGES.submitted }
  }),

  /** The signed-in person's latest application (null when none). */
  myApplication: authedProcedure.query(({ ctx }) => myApplication(ctx.db, ctx.user.id)),

  profile: creatorProcedure.query(({ ctx }) => ownProfile(ctx.db, ctx.user.id)),

  updateProfile: creatorProcedure
    .input(profileInput)
    .mutation(({ ctx, input }) => updateCreatorProfile(ctx.db, ctx.user.id, input)),

  /** A public instructor profile, or null for an unknown slug (the page shows not found). */
  instructor: publicProcedure.input(instructorSlugInput).query(async ({ ctx, input }) => {
    const page = await instructorPage(ctx.db, input.slug)
    if (!page) return null
    const { instructor, courses, totalLearners, rating } = page
    // The bio is Markdown, rendered and sanitised as lesson articles are (loaded on first use: a heavy module).
    const { renderMarkdown } = await import('../learning/markdown.ts')
    return {
      slug: instructor.slug,
      name: instructor.name,
      title: instructor.title,
      bioHtml: renderMarkdown(instructor.bio),
      image: instructor.image_url,
      links: instructor.links,
      isHouse: instructor.user_id === null,
      courses: courses.map(toCourseCard),
      totalLearners,
      rating,
    }
  }),
})
