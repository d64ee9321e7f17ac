import { z } from 'zod'
import { FEATURED_SERVICES_LIMIT } from '../../src-shared/constants.ts'
import { serviceCardSchema, serviceDetailSchema, serviceIdSchema } from '../../src-shared/schemas/services.ts'
import { featuredServices } from '../flows/home-content.ts'
import { findService, listPackages, listServices } from '../services/repository.ts'
import { publicProcedure, router } from '../trpc/init.ts'

type ServiceRow = Awaited<ReturnType<typeof listServices>>[number]

/** What a service card and the service page both show first. */
function toServiceSummary(row: Pick<ServiceRow, 'id' | 'title' | 'description' | 'category_name' | 'image_url'>) {
  return {
    id: row.id,
    title: row.title,
    description: row.description,
    category: row.category_name,
    image: row.image_url,
  }
}

function toServiceCard(row: ServiceRow) {
  return {
    ...toServiceSummary(row),
    featured: row.featured,
    fromPriceMinor: row.from_price_minor,
    fromBillingInterval: row.from_billing_interval ?? null,
    currency: row.from_currency ?? 'USD',
  }
}

export const servicesRouter = router({
  list: publicProcedure
    .output(z.array(serviceCardSchema))
    .query(async ({ ctx }) => (await listServices(ctx.db)).map(toServiceCard)),

  /** At most three featured services (spec §9); the home section hides itself when this is empty. */
  featured: publicProcedure
    .output(z.array(serviceCardSchema))
    .query(async ({ ctx }) => (await featuredServices(ctx.db, FEATURED_SERVICES_LIMIT)).map(toServiceCard)),

  /** A service with its packages in order, or null (the page shows 'Service Not Found'). */
  byId: publicProcedure
    .input(z.object({ id: serviceIdSchema }))
    .output(serviceDetailSchema.nullable())
    .query(async ({ ctx, input }) => {
      const row = await findService(ctx.db, input.id)
      if (!row) return null
      const packages = await listPackages(ctx.db, row.id)
      return {
        ...toServiceSummary(row),
        whatYouGet: row.what_you_get,
        requirements: row.requirements,
        processSteps: row.process_steps,
        faqs: row.faqs,
        packages: packages.map((pkg) => ({
          id: pkg.id,
          name: pkg.name,
          priceMinor: pkg.price_minor,
          currency: pkg.currency,
          description: pkg.description,
          features: pkg.features,
          processingTime: pkg.processing_time,
          billingInterval: pkg.billing_interval,
        })),
      }
    }),
})
