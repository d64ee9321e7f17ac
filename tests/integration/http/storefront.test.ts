// Services, plans, content and contact routers, and the SEO routes over real HTTP.
import { TRPCError } from '@trpc/server'
import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildInstructorsSitemap, buildSitemapIndex } from '../../../src-server/http/seo.ts'
import { defaultAppConfig } from '../../../src-server/kernel/config.ts'
import type { DatabaseHandle } from '../../../src-server/kernel/db.ts'
import { latestMailTo } from '../../../src-server/mail/outbox.ts'
import { defaultPayments, type PaymentsConfig } from '../../../src-server/payments/config.ts'
import type { StripeApi } from '../../../src-server/payments/stripe.ts'
import { createCaller } from '../../../src-server/routers/_app.ts'
import { createServer, type Server } from '../../../src-server/server.ts'
import { createContextInner } from '../../../src-server/trpc/context.ts'
import { createTestDatabase } from '../../support/db.ts'

let database: DatabaseHandle
let server: Server
let baseUrl: string
const visitor = () => createCaller(createContextInner({ db: database.db, user: null, session: null }))

beforeAll(async () => {
  database = await createTestDatabase()
  server = await createServer({
    env: {
      NODE_ENV: 'test',
      PORT: 0,
      HOST: '127.0.0.1',
      CLIENT_DIR: '/nonexistent',
      LOG_LEVEL: 'silent',
      PUBLIC_URL: 'https://shop.example',
    },
    db: database.db,
    logger: false,
  })
  baseUrl = await server.start()
})
afterAll(async () => {
  await server.stop()
  await database.close()
})

describe('services router', () => {
  it('lists every service with its lowest package price as the From price, in the package currency', async () => {
    const services = await visitor().services.list()
    expect(services.map((s) => s.id)).toEqual([
      'uk-company-formation',
      'usa-company-formation',
      'company-consultancy',
      'seo-audit',
      'seo-management',
    ])
    const uk = services.find((s) => s.id === 'uk-company-formation')
    expect(uk).toMatchObject({ fromPriceMinor: 30000, currency: 'GBP' })
    expect(services.find((s) => s.id === 'usa-company-formation')).toMatchObject({
      fromPriceMinor: 35000,
      currency: 'USD',
    })
    expect(services.find((s) => s.id === 'seo-management')).toMatchObject({
      fromPriceMinor: 49900,
      fromBillingInterval: 'month',
    })
    expect(uk?.fromBillingInterval).toBeNull()
  })

  it('the From price follows the packages in the database', async () => {
    await database.db
      .updateTable('service_packages')
      .set({ price_minor: 12345 })
      .where('service_id', '=', 'seo-audit')
      .where(
        'name',
        '=',
        (
          await database.db
            .selectFrom('service_packages')
            .select('name')
            .where('service_id', '=', 'seo-audit')
            .orderBy('position', 'desc')
            .executeTakeFirstOrThrow()
        ).name,
      )
      .execute()
    const audit = (await visitor().services.list()).find((s) => s.id === 'seo-audit')
    expect(audit?.fromPriceMinor).toBe(12345)
  })

  it('featured: at most three flagged services, none when none is flagged', async () => {
    // The seed flags these three; the test sets the flags itself, so it holds in any order.
    await database.db.updateTable('services').set({ featured: false }).execute()
    await database.db
      .updateTable('services')
      .set({ featured: true })
      .where('id', 'in', ['uk-company-formation', 'usa-company-formation', 'company-consultancy'])
      .execute()
    const featured = await visitor().services.featured()
    expect(featured.map((s) => s.id)).toEqual(['uk-company-formation', 'usa-company-formation', 'company-consultancy'])
    expect(featured.every((s) => s.featured)).toBe(true)
    await database.db.updateTable('services').set({ featured: true }).execute()
    expect(await visitor().services.featured()).toHaveLength(3)
    await database.db.updateTable('services').set({ featured: false }).execute()
    expect(await visitor().services.featured()).toEqual([])
  })

  it('byId returns packages in order with every section, and null for an unknown id', async () => {
    const service = await visitor().services.byId({ id: 'usa-company-formation' })
    expect(service?.packages).toHaveLength(7)
    expect(service?.packages[0]?.priceMinor).toBe(35000)
    expect(service?.processSteps).toHaveLength(4)
    expect(service?.faqs).toHaveLength(5)
    expect(service?.requirements).toHaveLength(5)
    expect(service?.whatYouGet).toHaveLength(7)
    const seo = await visitor().services.byId({ id: 'seo-management' })
    expect(seo?.packages.map((p) => p.billingInterval)).toEqual(['month', 'month', 'month'])
    expect(await visitor().services.byId({ id: 'no-such-service' })).toBeNull()
  })
})

describe('plans router', () => {
  it('returns Basic, Pro (Most Popular) and Enterprise with both prices, and the comparison table', async () => {
    const { plans, comparison } = await visitor().plans.list()
    expect(plans.map((p) => [p.name, p.monthlyPriceMinor, p.annualPriceMinor, p.isPopular])).toEqual([
      ['Basic', 999, 9999, false],
      ['Pro', 1999, 19999, true],
      ['Enterprise', 4999, 49999, false],
    ])
    expect(plans[1]?.badge).toBe('Most Popular')
    expect(comparison).toHaveLength(10)
    expect(comparison[0]).toEqual({
      name: 'Published courses',
      starter: '5 courses',
      professional: '25 courses',
      enterprise: 'Unlimited',
    })
  })

  it('promises only the ways to pay the store is set up for', async () => {
    const withConfig = (payments: PaymentsConfig) =>
      createCaller(
        createContextInner({ db: database.db, user: null, session: null, config: { ...defaultAppConfig, payments } }),
      ).plans.list()
    const checkoutLine = (list: Awaited<ReturnType<typeof withConfig>>) =>
      list.plans[0]?.features.find((feature) => feature.startsWith('Secure checkout'))
    const none: PaymentsConfig = { ...defaultPayments, stripe: null, paypalMeUrl: null }
    const bare = await withConfig(none)
    expect(bare.paymentMethods).toEqual({ card: false, paypal: false })
    expect(checkoutLine(bare)).toBe('Secure checkout by bank transfer')
    const paypal = await withConfig({ ...none, paypalMeUrl: 'https://paypal.me/shop' })
    expect(checkoutLine(paypal)).toBe('Secure checkout with PayPal')
    // Any Stripe client counts as cards on (this read never calls it).
    const both = await withConfig({ ...none, paypalMeUrl: 'https://paypal.me/shop', stripe: {} as StripeApi })
    expect(both.paymentMethods).toEqual({ card: true, paypal: true })
    expect(checkoutLine(both)).toBe('Secure checkout with card and PayPal')
  })
})

describe('content router', () => {
  it('returns the three testimonials and the three promo videos in order', async () => {
    const testimonials = await visitor().content.testimonials()
    expect(testimonials).toHaveLength(3)
    const videos = await visitor().content.promoVideos()
    expect(videos.map((v) => v.src)).toEqual(['/media/promo-1.mp4', '/media/promo-2.mp4', '/media/promo-3.mp4'])
    expect(videos.every((v) => v.poster.startsWith('/images/posters/'))).toBe(true)
  })
})

describe('contact router', () => {
  const valid = {
    name: 'Ada Lovelace',
    email: 'ada@example.test',
    subject: 'Question about courses',
    message: 'Do you offer team licences for ten people?',
    agreement: true as const,
  }

  it('stores the message and queues an e-mail to staff', async () => {
    const result = await visitor().contact.send(valid)
    expect(result.message).toBe("Message sent successfully! We'll get back to you soon.")
    const stored = await database.db
      .selectFrom('contact_messages')
      .select(['name', 'email', 'subject', 'message'])
      .where('id', '=', result.id)
      .executeTakeFirstOrThrow()
    expect(stored).toEqual({ name: valid.name, email: valid.email, subject: valid.subject, message: valid.message })
    const mail = await latestMailTo(database.db, 'support@skillforge.example', 'contact-message')
    expect(mail?.subject).toBe('Contact form: Question about courses')
    expect(mail?.text_body).toContain('Do you offer team licences')
    expect(mail?.text_body).toContain('ada@example.test')
  })

  it.each([
    [{ name: 'A' }, 'name', 'Name must be at least 2 characters.'],
    [{ email: 'not-an-email' }, 'email', 'Please enter a valid email address.'],
    [{ subject: 'Hey' }, 'subject', 'Subject must be at least 5 characters.'],
    [{ message: 'Too short' }, 'message', 'Message must be at least 10 characters.'],
    [{ agreement: false }, 'agreement', 'You must agree to our terms and privacy policy.'],
    [{ message: 'x'.repeat(5001) }, 'message', 'Message must be at most 5000 characters.'],
  ])('refuses %o with the spec message and stores nothing', async (override, field, message) => {
    const before = await database.db
      .selectFrom('contact_messages')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .executeTakeFirstOrThrow()
    const error = await visitor()
      .contact.send({ ...valid, ...override } as typeof valid)
      .catch((e: unknown) => e)
    expect(error).toBeInstanceOf(TRPCError)
    expect((error as TRPCError).code).toBe('BAD_REQUEST')
    expect(JSON.stringify((error as TRPCError).cause)).toContain(message)
    expect(JSON.stringify((error as TRPCError).cause)).toContain(field)
    const after = await database.db
      .selectFrom('contact_messages')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .executeTakeFirstOrThrow()
    expect(Number(after.n)).toBe(Number(before.n))
  })

  it('keeps neither the message nor the e-mail when queueing the e-mail fails', async () => {
    const count = async () =>
      Number(
        (
          await database.db
            .selectFrom('contact_messages')
            .select((eb) => eb.fn.countAll<string>().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      )
    const before = await count()
    await sql`alter table mail_outbox add constraint refuse_contact check (kind <> 'contact-message') not valid`.execute(
      database.db,
    )
    try {
      await expect(visitor().contact.send(valid)).rejects.toThrow(
        'new row for relation "mail_outbox" violates check constraint "refuse_contact"',
      )
      expect(await count()).toBe(before)
    } finally {
      await sql`alter table mail_outbox drop constraint refuse_contact`.execute(database.db)
    }
  })
})

describe('SEO routes', () => {
  /** Every <loc> of an XML document. */
  const locs = (xml: string) => [...xml.matchAll(/<loc>([^<]*)<\/loc>/g)].map((m) => m[1] ?? '')

  it('/sitemap.xml is an index of sitemap files that list every published course and service, and no draft', async () => {
    const response = await fetch(`${baseUrl}/sitemap.xml`)
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toContain('application/xml')
    const index = await response.text()
    expect(index).toContain('<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">')
    const files = locs(index)
    expect(files).toEqual([
      'https://shop.example/sitemaps/pages.xml',
      'https://shop.example/sitemaps/courses-1.xml',
      'https://shop.example/sitemaps/instructors-1.xml',
    ])
    const listed: string[] = []
    for (const file of files) {
      const answer = await fetch(file.replace('https://shop.example', baseUrl))
      expect(answer.status, file).toBe(200)
      expect(answer.headers.get('content-type')).toContain('application/xml')
      const xml = await answer.text()
      expect(xml).toContain('<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">')
      listed.push(...locs(xml))
    }
    expect(new Set(listed).size).toBe(listed.length)
    const published = await database.db.selectFrom('courses').select('id').where('status', '=', 'published').execute()
    for (const { id } of published) expect(listed).toContain(`https://shop.example/courses/${id}`)
    const drafts = await database.db.selectFrom('courses').select('id').where('status', '=', 'draft').execute()
    for (const { id } of drafts) expect(listed).not.toContain(`https://shop.example/courses/${id}`)
    for (const { id } of await database.db.selectFrom('services').select('id').execute()) {
      expect(listed).toContain(`https://shop.example/service/${id}`)
    }
    expect(listed).toContain('https://shop.example/pricing')
    expect(listed.filter((loc) => loc.includes('/courses/'))).toHaveLength(published.length)
  })

  it('lists the profile of every instructor with a published course, and no profile without one', async () => {
    const empty = await database.db
      .insertInto('instructors')
      .values({ name: 'Nora Nocourse', slug: 'nora-nocourse' })
      .returning('id')
      .executeTakeFirstOrThrow()
    // An instructor whose only course is a draft is left out too, until the course is published.
    const drafting = await database.db
      .insertInto('instructors')
      .values({ name: 'Dana Draft', slug: 'dana-draft' })
      .returning('id')
      .executeTakeFirstOrThrow()
    const draftCourse = await database.db
      .selectFrom('courses')
      .select('id')
      .where('status', '=', 'draft')
      .executeTakeFirst()
    const course =
      draftCourse ??
      (await database.db.selectFrom('courses').select('id').where('status', '=', 'published').executeTakeFirstOrThrow())
    const before = await database.db
      .selectFrom('courses')
      .select(['instructor_id', 'status'])
      .where('id', '=', course.id)
      .executeTakeFirstOrThrow()
    await database.db
      .updateTable('courses')
      .set({ instructor_id: drafting.id, status: 'draft' })
      .where('id', '=', course.id)
      .execute()
    try {
      const response = await fetch(`${baseUrl}/sitemaps/instructors-1.xml`)
      expect(response.status).toBe(200)
      expect(response.headers.get('content-type')).toContain('application/xml')
      const listed = locs(await response.text())
      const teaching = await database.db
        .selectFrom('instructors')
        .innerJoin('courses', 'courses.instructor_id', 'instructors.id')
        .where('courses.status', '=', 'published')
        .select('instructors.slug')
        .distinct()
        .orderBy('instructors.slug')
        .execute()
      expect(teaching.length).toBeGreaterThan(0)
      expect(listed).toEqual(teaching.map((i) => `https://shop.example/instructors/${i.slug}`))
      expect(listed).not.toContain('https://shop.example/instructors/nora-nocourse')
      expect(listed).not.toContain('https://shop.example/instructors/dana-draft')

      await database.db.updateTable('courses').set({ status: 'published' }).where('id', '=', course.id).execute()
      const after = locs(await (await fetch(`${baseUrl}/sitemaps/instructors-1.xml`)).text())
      expect(after).toContain('https://shop.example/instructors/dana-draft')
      expect(after).not.toContain('https://shop.example/instructors/nora-nocourse')

      // Sliced like the courses: at most `perFile` a file, each profile once, in slug order.
      const deps = { db: database.db, config: { ...defaultAppConfig, publicUrl: 'https://shop.example' } }
      const index = await buildSitemapIndex(deps, 2)
      const files = [...index.matchAll(/\/sitemaps\/instructors-(\d+)\.xml/g)].map((m) => Number(m[1]))
      expect(files).toEqual(Array.from({ length: Math.ceil(after.length / 2) }, (_, i) => i + 1))
      const sliced: string[] = []
      for (const file of files) {
        const slice = locs((await buildInstructorsSitemap(deps, file, 2)) ?? '')
        expect(slice.length).toBeGreaterThan(0)
        expect(slice.length).toBeLessThanOrEqual(2)
        sliced.push(...slice)
      }
      expect(sliced).toEqual(after)
      expect(await buildInstructorsSitemap(deps, files.length + 1, 2)).toBeNull()
    } finally {
      await database.db.updateTable('courses').set(before).where('id', '=', course.id).execute()
      await database.db.deleteFrom('instructors').where('id', 'in', [empty.id, drafting.id]).execute()
    }
  })

  it('answers 404 for a course or instructor sitemap past the last one, or not a number', async () => {
    for (const path of [
      '/sitemaps/courses-2.xml',
      '/sitemaps/courses-0.xml',
      '/sitemaps/courses-x.xml',
      '/sitemaps/instructors-2.xml',
      '/sitemaps/instructors-0.xml',
      '/sitemaps/instructors-x.xml',
    ]) {
      expect((await fetch(`${baseUrl}${path}`)).status, path).toBe(404)
    }
  })

  it('/robots.txt points at the sitemap and keeps private areas out', async () => {
    const response = await fetch(`${baseUrl}/robots.txt`)
    expect(response.status).toBe(200)
    const text = await response.text()
    expect(text).toContain('Sitemap: https://shop.example/sitemap.xml')
    expect(text).toContain('Disallow: /admin')
  })
})
