// A school's own domain and white-label brand (decision 0063). The studio's procedures are the owner's alone and
// check the plan in the flow; `brand` is public: the header and footer's brand for the page's school or Host.
import {
  addDomainInput,
  brandQueryInput,
  handoffTargetInput,
  schoolBrandInput,
  sitePageInput,
} from '../../src-shared/schemas/domains.ts'
import { createTxtLookup } from '../creators/dns-verify.ts'
import {
  addSchoolDomain,
  checkSchoolDomain,
  domainPanel,
  handoffTarget,
  pageBrand,
  removeSchoolBrand,
  removeSchoolDomain,
  saveSchoolBrand,
  schoolSite,
  siteServes,
} from '../flows/school-domain.ts'
import { authedProcedure, creatorProcedure, publicProcedure, router } from '../trpc/init.ts'

const systemLookup = createTxtLookup()

export const domainsRouter = router({
  /** The owner's domain (with the TXT record to create), brand and what the plan allows. */
  mine: creatorProcedure.query(({ ctx }) => domainPanel(ctx.db, ctx.user.id)),

  add: creatorProcedure
    .input(addDomainInput)
    .mutation(({ ctx, input }) => addSchoolDomain(ctx.db, ctx.user.id, input.hostname, ctx.config.publicUrl)),

  check: creatorProcedure.mutation(({ ctx }) =>
    checkSchoolDomain(ctx.db, ctx.user.id, ctx.config.txtLookup ?? systemLookup, ctx.config.publicUrl),
  ),

  remove: creatorProcedure.mutation(async ({ ctx }) => {
    await removeSchoolDomain(ctx.db, ctx.user.id)
    return { removed: true }
  }),

  saveBrand: creatorProcedure.input(schoolBrandInput).mutation(async ({ ctx, input }) => {
    await saveSchoolBrand(ctx.db, ctx.user.id, input)
    return { saved: true }
  }),

  /** Takes the brand off (SkillForge's name again); its logo's file is removed. */
  removeBrand: creatorProcedure.mutation(async ({ ctx }) => {
    const logoUrl = await removeSchoolBrand(ctx.db, ctx.user.id)
    const key = logoUrl ? ctx.storage.keyFromUrl(logoUrl) : null
    if (key) {
      await ctx.storage
        .remove(key)
        .catch((err: unknown) => ctx.log.warn({ err, key }, 'removed brand’s logo not deleted'))
    }
    return { removed: true }
  }),

  /** The brand shown instead of SkillForge's under the school's own Host or on /s/{slug}; null for SkillForge's. */
  brand: publicProcedure
    .input(brandQueryInput)
    .query(({ ctx, input }) => pageBrand(ctx.db, ctx.config.publicUrl, { slug: input.slug, host: ctx.req?.host })),

  /**
   * The school's site the request came to (its own domain: decision 0143), or null on the platform's hosts: the
   * client's router sends the marketplace's pages away and draws the school's header from it.
   */
  site: publicProcedure.query(({ ctx }) => schoolSite(ctx.db, ctx.config.publicUrl, ctx.req?.host)),

  /** Whether this site serves a course's page or player, or a bundle's page (a link followed on a school's domain). */
  serves: publicProcedure
    .input(sitePageInput)
    .query(({ ctx, input }) => siteServes(ctx.db, ctx.config.publicUrl, ctx.req?.host, input)),

  /** The platform's /handoff page: the school a signed-in learner continues to (the name shown on the button). */
  handoffTarget: authedProcedure
    .input(handoffTargetInput)
    .query(({ ctx, input }) => handoffTarget(ctx.db, ctx.user, input.site)),
})
