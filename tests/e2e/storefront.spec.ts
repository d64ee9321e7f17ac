import type { APIRequestContext } from '@playwright/test'
import { createUser } from '../support/factories.ts'
import { studioCourseOf } from '../support/studio.ts'
import { expect, test } from './fixtures.ts'

async function trpc<T>(request: APIRequestContext, path: string, input?: unknown): Promise<T> {
  const query = input === undefined ? '' : `?input=${encodeURIComponent(JSON.stringify(input))}`
  const response = await request.get(`/trpc/${path}${query}`)
  return ((await response.json()) as { result: { data: T } }).result.data
}
type SearchResult = { total: number; items: { id: string; title: string }[]; pageCount: number }

test.describe('home page', () => {
  test('shows every section in the spec order with working calls to action', async ({ page }) => {
    await page.goto('/')
    await expect(page.getByRole('heading', { name: 'What Our Creators Say' })).toBeVisible()
    const headings = await page.locator('main h2').allTextContents()
    const order = [
      'Featured Courses',
      'Featured Services',
      'Browse Categories',
      'Everything you need',
      'What Our Creators Say',
      'Ready to share',
    ]
    const positions = order.map((text) => headings.findIndex((h) => h.startsWith(text)))
    expect(
      positions.every((p) => p >= 0),
      headings.join(' | '),
    ).toBe(true)
    expect(positions).toEqual([...positions].sort((a, b) => a - b))
    // The statistics are counted by the server (the demo's learners and instructors), not the spec's static text.
    const statistics = page.getByRole('region', { name: 'Statistics' }).getByTestId('statistic')
    await expect(statistics.filter({ hasText: 'Active Students' })).toHaveText(
      /^\d[\d,]*(\.\d)?[KM]?\+?Active Students$/,
    )
    await expect(statistics.filter({ hasText: 'Course Creators' })).toHaveText(/^\d[\d,]*Course Creators$/)
    await expect(page.getByText('1.2M+', { exact: true })).toHaveCount(0)
    await expect(page.getByRole('link', { name: 'Get Started For Free' })).toHaveAttribute('href', '/signup')
    await expect(page.getByRole('link', { name: 'Start Creating Today' })).toHaveAttribute('href', '/signup')
    await expect(page.getByRole('link', { name: 'Apply as Teacher' })).toHaveAttribute('href', '/teach')
    await expect(page.getByRole('link', { name: 'View All Services' })).toHaveAttribute('href', '/services')
    await expect(page.locator('figure blockquote')).toHaveCount(3)
    await expect(page).toHaveTitle('SkillForge')
  })

  test('category cards show database counts and open the category listing', async ({ page, request }) => {
    const categories = await trpc<{ slug: string; name: string; count: number }[]>(request, 'catalog.categories')
    await page.goto('/')
    const cards = page.getByTestId('category-card')
    await expect(cards).toHaveCount(4)
    const development = categories.find((c) => c.slug === 'development')
    await expect(cards.first()).toContainText(`Development${development?.count} courses`)
    await cards.first().click()
    await expect(page).toHaveURL('/courses/category/development')
    await expect(page.getByRole('heading', { name: 'Development Courses' })).toBeVisible()
    await expect(page.getByTestId('catalogue-count')).toHaveText(`${development?.count} Courses`)
  })

  test('the course preview dialog shows the course and closes with Escape', async ({ page, request }) => {
    const featured = await trpc<{ title: string; instructor: string; description: string }[]>(
      request,
      'catalog.featuredCourses',
    )
    const first = featured[0]
    if (!first) throw new Error('no featured course')
    await page.goto('/')
    await page.getByRole('button', { name: `Preview ${first.title}` }).click()
    const dialog = page.getByRole('dialog')
    await expect(dialog).toBeVisible()
    await expect(dialog.getByRole('heading', { name: first.title })).toBeVisible()
    await expect(dialog.getByText(`By ${first.instructor}`)).toBeVisible()
    await expect(dialog.getByText(first.description)).toBeVisible()
    await expect(dialog.getByRole('img', { name: first.title })).toBeVisible()
    await page.keyboard.press('Escape')
    await expect(dialog).toBeHidden()
  })
})

test.describe('promo video carousel', () => {
  const titles = ['Create Your First Course in Minutes', 'Grow Your Audience', 'Get Paid for What You Know']
  const carousel = (page: import('@playwright/test').Page) => page.getByRole('region', { name: 'Promo videos' })

  test('next, previous, dots and arrow keys move the active video', async ({ page }) => {
    await page.goto('/')
    const region = carousel(page)
    await expect(region.getByRole('heading', { name: titles[0] })).toBeVisible()
    await region.getByRole('button', { name: 'Next video' }).click()
    await expect(region.getByRole('heading', { name: titles[1] })).toBeVisible()
    await region.getByRole('button', { name: /Show video 3/ }).click()
    await expect(region.getByRole('heading', { name: titles[2] })).toBeVisible()
    await expect(region.getByRole('button', { name: /Show video 3/ })).toHaveAttribute('aria-current', 'true')
    await region.getByRole('button', { name: 'Next video' }).click()
    await expect(region.getByRole('heading', { name: titles[0] })).toBeVisible()
    await region.getByRole('button', { name: 'Previous video' }).focus()
    await page.keyboard.press('ArrowLeft')
    await expect(region.getByRole('heading', { name: titles[2] })).toBeVisible()
    await expect(page.getByTestId('promo-video')).toHaveAttribute('poster', '/images/posters/promo-3.svg')
  })

  test('play really plays the video, pause stops it', async ({ page }) => {
    await page.goto('/')
    const region = carousel(page)
    await region.getByRole('button', { name: 'Play video' }).click()
    const video = page.getByTestId('promo-video')
    await expect(video).toHaveAttribute('data-playing', 'true')
    await expect.poll(() => video.evaluate((v: HTMLVideoElement) => v.currentTime > 0 && !v.paused)).toBe(true)
    await region.getByRole('button', { name: 'Pause video' }).click()
    await expect.poll(() => video.evaluate((v: HTMLVideoElement) => v.paused)).toBe(true)
  })

  test('while playing it advances every 15 seconds', async ({ page }) => {
    await page.clock.install()
    await page.goto('/')
    const region = carousel(page)
    await region.getByRole('button', { name: 'Play video' }).click()
    await page.clock.fastForward(14_000)
    await expect(region.getByRole('heading', { name: titles[0] })).toBeVisible()
    await page.clock.fastForward(1_500)
    await expect(region.getByRole('heading', { name: titles[1] })).toBeVisible()
  })

  test('a playback failure stops playing', async ({ page }) => {
    await page.route('**/media/promo-1.mp4', (route) => route.fulfill({ status: 404, body: 'missing' }))
    await page.goto('/')
    const region = carousel(page)
    await region.getByRole('button', { name: 'Play video' }).click()
    await expect(region.getByRole('alert')).toHaveText('This video could not be played.')
    await expect(region.getByRole('button', { name: 'Play video' })).toBeVisible()
    await expect(page.getByTestId('promo-video')).toHaveAttribute('data-playing', 'false')
  })
})

test.describe('course catalogue', () => {
  test('search, filters and sort live in the URL and the back button restores them', async ({ page, request }) => {
    const all = await trpc<SearchResult>(request, 'catalog.search', {})
    await page.goto('/courses')
    await expect(page.getByTestId('catalogue-count')).toHaveText(`${all.total} Courses`)

    await page.getByRole('searchbox', { name: 'Search courses' }).fill('design')
    await page.getByRole('button', { name: 'Search', exact: true }).click()
    await expect(page).toHaveURL(/search=design/)
    const design = await trpc<SearchResult>(request, 'catalog.search', { search: 'design' })
    await expect(page.getByTestId('catalogue-count')).toHaveText(
      `${design.total} ${design.total === 1 ? 'Course' : 'Courses'}`,
    )

    await page.getByLabel('Price').selectOption('50to100')
    await expect(page).toHaveURL(/price=50to100/)
    const priced = await trpc<SearchResult>(request, 'catalog.search', { search: 'design', price: '50to100' })
    await expect(page.getByTestId('course-card')).toHaveCount(priced.items.length)

    await page.goBack()
    await expect(page).not.toHaveURL(/price=/)
    await expect(page.getByLabel('Price')).toHaveValue('')
    await expect(page.getByTestId('catalogue-count')).toHaveText(
      `${design.total} ${design.total === 1 ? 'Course' : 'Courses'}`,
    )
    await page.goBack()
    await expect(page.getByRole('searchbox', { name: 'Search courses' })).toHaveValue('')
    await expect(page.getByTestId('catalogue-count')).toHaveText(`${all.total} Courses`)
  })

  test('every filter option shows its count and filters on the server', async ({ page, request }) => {
    await page.goto('/courses')
    await page.getByLabel('Category').selectOption('development')
    await expect(page).toHaveURL(/category=development/)
    await page.getByRole('radio', { name: /4 & up/ }).click()
    await expect(page).toHaveURL(/rating=4/)
    await page.getByRole('radio', { name: /12\+ hours/ }).click()
    await expect(page).toHaveURL(/duration=12%2B/)
    await page.getByLabel('Sort by').selectOption('price-asc')
    const expected = await trpc<SearchResult>(request, 'catalog.search', {
      category: 'development',
      rating: 4,
      duration: '12+',
      sort: 'price-asc',
    })
    await expect(page.getByTestId('course-card').locator('h3')).toHaveText(expected.items.map((c) => c.title))
    const label = await page
      .getByRole('radio', { name: /4 & up/ })
      .locator('..')
      .textContent()
    expect(label).toContain(`(${expected.total})`)
  })

  test('a category link preselects the category and ?search= prefills the box', async ({ page }) => {
    await page.goto('/courses?category=development&search=react')
    await expect(page.getByLabel('Category')).toHaveValue('development')
    await expect(page.getByRole('searchbox', { name: 'Search courses' })).toHaveValue('react')
    await expect(page.getByTestId('course-card').first()).toContainText('React')
  })

  test('a search result opens the course page marked from search, and its cart line keeps it; browsing marks catalogue', async ({
    page,
    login,
    db,
  }) => {
    const user = await login()
    await page.goto('/courses?search=react')
    // A priced course (a free one is enrolled in, not added to the cart).
    const card = page
      .getByTestId('course-card')
      .filter({ hasNot: page.getByText('Free', { exact: true }) })
      .first()
    const title = (await card.getByRole('heading').textContent())!.trim()
    await card.getByRole('heading').getByRole('link').click()
    await expect(page).toHaveURL(/\/courses\/[^/?]+\?from=search$/)
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(title)
    await page.getByRole('main').getByRole('button', { name: 'Add to Cart' }).first().click()
    await expect(page.getByRole('main').getByRole('button', { name: 'Added to Cart' }).first()).toBeVisible()
    const lines = await db.selectFrom('cart_items').select(['kind', 'channel']).where('user_id', '=', user.id).execute()
    expect(lines).toEqual([{ kind: 'course', channel: 'search' }])

    // A category's listing (no search term) is browsing the catalogue.
    await page.goto('/courses/category/development')
    await page.getByTestId('course-card').first().getByRole('heading').getByRole('link').click()
    await expect(page).toHaveURL(/\/courses\/[^/?]+\?from=catalogue$/)
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible()
  })

  test('pagination moves through pages; Previous is disabled on page 1', async ({ page, request }) => {
    const page2 = await trpc<SearchResult>(request, 'catalog.search', { page: 2 })
    await page.goto('/courses')
    const pager = page.getByRole('navigation', { name: 'Pagination' })
    await expect(pager.getByRole('button', { name: 'Previous' })).toBeDisabled()
    await expect(page.getByTestId('course-card')).toHaveCount(12)
    await pager.getByRole('button', { name: 'Page 2' }).click()
    await expect(page).toHaveURL(/page=2/)
    await expect(page.getByTestId('course-card').first()).toContainText(page2.items[0]?.title ?? '')
    await expect(pager.getByRole('button', { name: 'Previous' })).toBeEnabled()
    await pager.getByRole('button', { name: 'Next' }).click()
    await expect(page).toHaveURL(/page=3/)
    // The last page (other specs publish courses too, so the count is read, not assumed): Next is disabled there.
    await page.goto(`/courses?page=${page2.pageCount}`)
    await expect(pager.getByRole('button', { name: 'Next' })).toBeDisabled()
  })

  test('empty result offers Clear All Filters; bad params fall back to defaults', async ({ page, request }) => {
    const { pageCount } = await trpc<SearchResult>(request, 'catalog.search', { page: 1 })
    await page.goto('/courses?search=zzzz-no-match')
    await expect(page.getByRole('heading', { name: 'No courses found' })).toBeVisible()
    await expect(page.getByText('Try adjusting your filters or search term')).toBeVisible()
    await page.getByRole('button', { name: 'Clear All Filters' }).click()
    await expect(page).toHaveURL('/courses')
    await expect(page.getByTestId('course-card')).toHaveCount(12)

    await page.goto('/courses?page=abc&sort=bogus&price=cheap&rating=99')
    await expect(page.getByTestId('course-card')).toHaveCount(12)
    await page.goto('/courses?page=999')
    await expect(page.getByRole('button', { name: `Page ${pageCount}` })).toHaveAttribute('aria-current', 'page')
  })
})

test.describe('course detail', () => {
  test('shows every section, the curriculum accordion and structured data', async ({ page, request }) => {
    const course = await trpc<{ title: string; priceMinor: number; originalPriceMinor: number }>(
      request,
      'catalog.course',
      {
        id: 'modern-react-typescript',
      },
    )
    await page.goto('/courses/modern-react-typescript')
    await expect(page.getByRole('heading', { level: 1, name: course.title })).toBeVisible()
    await expect(page).toHaveTitle(`${course.title} | SkillForge`)
    await expect(page.getByTestId('course-price')).toHaveText(`$${(course.priceMinor / 100).toFixed(2)}`)
    await expect(page.getByTestId('course-original-price')).toHaveText(
      `$${(course.originalPriceMinor / 100).toFixed(2)}`,
    )
    for (const name of ["What you'll learn", 'Course content', 'Requirements', 'Instructor', 'Course Statistics']) {
      await expect(page.getByRole('heading', { name, exact: true })).toBeVisible()
    }
    await expect(page.getByTestId('total-lessons')).toHaveText('4 sections • 17 lessons')
    await expect(page.getByText('Welcome and course overview')).toBeVisible()
    await expect(page.getByText('useState and event handling')).toBeHidden()
    // Sections are native disclosures (<details>/<summary>): they open by click or by keyboard, scripts or not.
    const section = page.locator('summary', { hasText: 'Hooks and State Management' })
    await section.click()
    await expect(page.getByText('useState and event handling')).toBeVisible()
    await section.press('Enter')
    await expect(page.getByText('useState and event handling')).toBeHidden()
    await section.press('Space')
    await expect(page.getByText('useState and event handling')).toBeVisible()
    await expect(page.getByRole('img', { name: 'Locked lesson' }).first()).toBeVisible()
    await expect(page.locator('meta[property="og:title"]')).toHaveAttribute('content', `${course.title} | SkillForge`)
    const jsonLd = JSON.parse((await page.locator('script[type="application/ld+json"]').textContent()) ?? '{}')
    expect(jsonLd['@type']).toBe('Course')
    expect(jsonLd.offers).toMatchObject({
      '@type': 'Offer',
      price: (course.priceMinor / 100).toFixed(2),
      priceCurrency: 'USD',
    })
  })

  test('a course of one section and one lesson counts them in the singular', async ({ page, db }) => {
    const id = await studioCourseOf(db, (await createUser(db)).id)
    await db.updateTable('courses').set({ status: 'published', lessons_count: 1 }).where('id', '=', id).execute()
    await page.goto(`/courses/${id}`)
    await expect(page.getByTestId('total-lessons')).toHaveText('1 section • 1 lesson')
    await expect(page.locator('summary').filter({ hasText: 'Getting started' })).toContainText('1 lesson')
    await expect(page.locator('summary').filter({ hasText: 'Getting started' })).not.toContainText('1 lessons')
    await expect(page.getByText(/^1 lesson • /)).toBeVisible()
  })

  test('a creator\'s course without requirements or outcomes shows no empty heading; its "# Heading" is a real h2', async ({
    page,
    db,
  }) => {
    const id = await studioCourseOf(db, (await createUser(db)).id)
    await db
      .updateTable('courses')
      .set({
        status: 'published',
        lessons_count: 1,
        what_you_will_learn: JSON.stringify([]),
        description: '# About\n\nA course built end to end in the studio.',
      })
      .where('id', '=', id)
      .execute()
    await db
      .updateTable('lessons')
      .set({ is_preview: true, body_markdown: '# Welcome\n\nStart here.' })
      .where('course_id', '=', id)
      .execute()
    await page.goto(`/courses/${id}`)
    await expect(page.getByRole('heading', { name: 'Course content', exact: true })).toBeVisible()
    // The creator left both lists empty: no heading over nothing.
    await expect(page.getByRole('heading', { name: 'Requirements', exact: true })).toHaveCount(0)
    await expect(page.getByRole('heading', { name: "What you'll learn", exact: true })).toHaveCount(0)
    // "# About" in the description: a heading under the course's own h1, and it looks like one.
    const about = page.getByRole('heading', { name: 'About', exact: true })
    await expect(about).toHaveJSProperty('tagName', 'H2')
    expect(await about.evaluate((el) => Number(getComputedStyle(el).fontWeight))).toBeGreaterThanOrEqual(700)
    await expect(page.locator('h1')).toHaveCount(1)
    // So is "# Welcome" in the free preview lesson, under the lesson's title.
    const lesson = await db.selectFrom('lessons').select('id').where('course_id', '=', id).executeTakeFirstOrThrow()
    await page.goto(`/learn/${id}/${lesson.id}`)
    await expect(page.getByText('Start here.')).toBeVisible()
    const welcome = page.getByRole('heading', { name: 'Welcome', exact: true }).and(page.locator('h2'))
    expect(await welcome.evaluate((el) => Number(getComputedStyle(el).fontWeight))).toBeGreaterThanOrEqual(700)
    await expect(page.locator('h1')).toHaveCount(1)
  })

  test('an unknown course id shows the course 404 variant, answered 404, leading to the catalogue', async ({
    page,
  }) => {
    expect((await page.goto('/courses/definitely-not-a-course'))?.status()).toBe(404)
    await expect(page.getByRole('heading', { name: 'Course Not Found' })).toBeVisible()
    await page.getByRole('link', { name: 'Browse All Courses' }).click()
    await expect(page).toHaveURL('/courses')
    await expect(page.getByTestId('course-card').first()).toBeVisible()
  })
})

test.describe('services', () => {
  test('list shows From prices in the right currency and a custom-solution link', async ({ page }) => {
    await page.goto('/services')
    await expect(page.getByRole('heading', { name: 'Professional Business Services' })).toBeVisible()
    await expect(page.getByTestId('service-card')).toHaveCount(5)
    await expect(page.getByTestId('service-card').filter({ hasText: 'UK Company Formation' })).toContainText(
      'From £300.00',
    )
    // Billed monthly: the card says so, as its page, the cart and the checkout do; a one-off price does not.
    await expect(page.getByTestId('service-card').filter({ hasText: 'SEO Management' })).toContainText(
      'From $499.00/month',
    )
    await expect(page.getByTestId('service-card').filter({ hasText: 'SEO Audit' })).not.toContainText('/month')
    await expect(page.getByRole('heading', { name: 'Need a Custom Solution?' })).toBeVisible()
    await page.getByRole('link', { name: 'Contact Us' }).click()
    await expect(page).toHaveURL('/contact')
  })

  test('detail: packages with Most Popular on the second, FAQ accordion, structured data', async ({ page }) => {
    await page.goto('/services')
    await page.getByRole('link', { name: 'UK Company Formation', exact: true }).click()
    await expect(page).toHaveURL('/service/uk-company-formation')
    const packages = page.getByTestId('package-card')
    await expect(packages).toHaveCount(2)
    await expect(packages.nth(1)).toContainText('Most Popular')
    await expect(packages.nth(0)).not.toContainText('Most Popular')
    await expect(packages.nth(0)).toContainText('£300.00')
    for (const name of [
      'Choose Your Package',
      'What You Get',
      'Requirements',
      'Our Process',
      'Ready to Get Started?',
    ]) {
      await expect(page.getByRole('heading', { name, exact: true })).toBeVisible()
    }
    await expect(page.locator('ol li').first()).toBeVisible()
    const question = page.getByRole('button', { name: 'Do I need to live in the UK to form a UK company?' })
    await expect(page.getByText('Directors and shareholders can live anywhere')).toBeHidden()
    await question.click()
    await expect(page.getByText(/Directors and shareholders can live anywhere/)).toBeVisible()
    await question.press('Enter')
    await expect(page.getByText(/Directors and shareholders can live anywhere/)).toBeHidden()
    const jsonLd = JSON.parse((await page.locator('script[type="application/ld+json"]').textContent()) ?? '{}')
    expect(jsonLd['@type']).toBe('Service')
    expect(jsonLd.offers[0]).toMatchObject({ price: '300.00', priceCurrency: 'GBP' })
  })

  test('an unknown service says so, answered 404; a real one is 200', async ({ page }) => {
    expect((await page.goto('/service/nope'))?.status()).toBe(404)
    await expect(page.getByRole('heading', { name: 'Service Not Found' })).toBeVisible()
    await expect(page.getByText("The service you're looking for doesn't exist.")).toBeVisible()
    expect((await page.goto('/service/seo-audit'))?.status()).toBe(200)
    await expect(page.getByRole('heading', { name: 'Service Not Found' })).toBeHidden()
  })
})

test('pricing: the monthly/annual toggle changes the prices; the table names the plans; the FAQ states the fee', async ({
  page,
}) => {
  await page.goto('/pricing')
  const prices = page.getByTestId('plan-price')
  await expect(prices).toHaveText(['$9.99', '$19.99', '$49.99'])
  await expect(page.getByTestId('plan-card').nth(1)).toContainText('Most Popular')
  await page.getByRole('button', { name: 'Annual (Save 16%)' }).click()
  await expect(page.getByRole('button', { name: 'Annual (Save 16%)' })).toHaveAttribute('aria-pressed', 'true')
  await expect(prices).toHaveText(['$99.99', '$199.99', '$499.99'])
  await page.getByRole('button', { name: 'Monthly' }).click()
  await expect(prices).toHaveText(['$9.99', '$19.99', '$49.99'])
  // The table's columns carry the names of the plans on the cards above it.
  await expect(page.getByRole('columnheader')).toHaveText(['Feature', 'Basic', 'Pro', 'Enterprise'])
  // Team sizes as the studio counts them: besides the owner, none on Basic and up to 3 on Pro.
  await expect(page.getByRole('row', { name: /^Team members/ }).getByRole('cell')).toHaveText([
    'Just you',
    'You + 3',
    'Unlimited',
  ])
  // Webhooks come with Enterprise only, and the page says so (decision 0141).
  await expect(page.getByRole('row', { name: /^API access, webhooks and single sign-on/ })).toBeVisible()
  await expect(page.getByTestId('plan-card').nth(2)).toContainText('Full API access, webhooks and single sign-on')
  await page.getByRole('button', { name: 'Is there a free trial?' }).click()
  await expect(page.getByText(/7-day free trial, so you can build/)).toBeVisible()
  // The fee the creator's earnings are charged (10 % on Basic, 5 % on Pro), not "No".
  await page.getByRole('button', { name: 'Do you take a share of my course sales?' }).click()
  await expect(
    page.getByText(/^Yes, a platform fee on each sale of your courses: 10% on Basic, 5% on Pro and 0% on Enterprise/),
  ).toBeVisible()
  // The saving is the plans' own: $99.99 a year against 12 × $9.99 saves 16%, not the spec's 20%.
  await page.getByRole('button', { name: 'How does annual billing work?' }).click()
  await expect(page.getByText('cost at least 16% less than paying monthly for twelve months')).toBeVisible()
  // What a plan gives a learner, and a trial that brings a new visitor back here once signed up.
  await expect(page.getByTestId('plans-premium').getByRole('link')).toHaveAttribute('href', '/account/premium')
  await expect(page.getByRole('link', { name: 'Start Free Trial' })).toHaveAttribute(
    'href',
    '/signup?redirect=%2Fpricing',
  )
})

test.describe('contact page', () => {
  test('shows each validation message, then sends, stores the message and resets', async ({ page, db }) => {
    await page.goto('/contact')
    // The hours the server keeps (LIVE_CHAT_HOURS: every hour on the e2e server), not the default's words.
    const details = page.getByRole('region', { name: 'Contact Information' })
    await expect(details.getByText('Every day', { exact: true })).toBeVisible()
    await expect(details.getByText('All day (GMT)', { exact: true })).toBeVisible()
    await expect(details).not.toContainText('Monday-Friday')
    await expect(page.locator('iframe[title^="Map"]')).toHaveAttribute('src', /openstreetmap\.org\/export\/embed\.html/)
    await page.getByRole('button', { name: 'Send Message' }).click()
    for (const message of [
      'Name must be at least 2 characters.',
      'Please enter a valid email address.',
      'Subject must be at least 5 characters.',
      'Message must be at least 10 characters.',
      'You must agree to our terms and privacy policy.',
    ]) {
      await expect(page.getByText(message)).toBeVisible()
    }
    const subject = `Team licences ${Date.now()}`
    await page.getByLabel('Your Name').fill('Grace Hopper')
    await page.getByLabel('Email Address').fill('grace@example')
    await page.getByLabel('Subject').fill(subject)
    await page.getByRole('textbox', { name: 'Message' }).fill('Can ten of us share one account for the React course?')
    await page.getByRole('checkbox').check()
    await page.getByRole('button', { name: 'Send Message' }).click()
    await expect(page.getByText('Please enter a valid email address.')).toBeVisible()
    await page.getByLabel('Email Address').fill('grace@example.test')
    await page.getByRole('button', { name: 'Send Message' }).click()
    await expect(page.getByText("Message sent successfully! We'll get back to you soon.")).toBeVisible()
    await expect(page.getByLabel('Your Name')).toHaveValue('')
    await expect(page.getByRole('checkbox')).not.toBeChecked()
    const stored = await db
      .selectFrom('contact_messages')
      .select(['email'])
      .where('subject', '=', subject)
      .executeTakeFirst()
    expect(stored?.email).toBe('grace@example.test')
    const mail = await db
      .selectFrom('mail_outbox')
      .select('kind')
      .where('subject', '=', `Contact form: ${subject}`)
      .executeTakeFirst()
    expect(mail?.kind).toBe('contact-message')
  })

  test('the FAQ has the four answers', async ({ page }) => {
    await page.goto('/contact')
    for (const [question, answer] of [
      ['How quickly will you respond?', '24-48 business hours'],
      ['Do you offer technical support?', 'Our support team helps'],
      ['What is your refund policy?', '30-day money-back guarantee'],
      ['How can I become an instructor?', 'resume and a course proposal'],
    ] as const) {
      await page.getByRole('button', { name: question }).click()
      await expect(page.getByText(new RegExp(answer)).first()).toBeVisible()
    }
  })
})

test.describe('information pages', () => {
  test('privacy has eleven sections and terms nine; privacy links to cookies', async ({ page }) => {
    await page.goto('/privacy')
    // Nine, and the deletion of one's account and the processors (decision 0053).
    await expect(page.locator('main h2')).toHaveCount(11)
    // The self-serve copy and the record of staff looking an account up (decision 0155).
    await expect(page.getByText('each time a member of staff looks your account up, it is recorded')).toBeVisible()
    await page.getByRole('link', { name: 'Cookie Policy' }).first().click()
    await expect(page).toHaveURL('/cookies')
    // Every cookie the server sets is listed, the sign-up's one (decision 0134) among them.
    await expect(page.locator('main li')).toHaveCount(6)
    await expect(page.getByText('Sign-up cookie: lets the verification link')).toBeVisible()
    await page.goto('/terms')
    await expect(page.locator('main h2')).toHaveCount(9)
    await page.goto('/about')
    for (const name of ['Our Mission', 'Our Story', 'Our Team', 'Our Approach']) {
      await expect(page.getByRole('heading', { name })).toBeVisible()
    }
    await expect(page.getByRole('link', { name: 'Contact Us' })).toHaveAttribute('href', '/contact')
    await expect(page.getByRole('link', { name: 'Browse Courses' })).toHaveAttribute('href', '/courses')
  })

  test('resources are guides, each leading to what it describes', async ({ page }) => {
    await page.goto('/resources')
    const main = page.getByRole('main')
    for (const guide of ['Planning a course.', 'Recording.', 'Pricing, coupons and bundles.', 'Your certificate.']) {
      await expect(main.getByText(guide, { exact: true })).toBeVisible()
    }
    await expect(main.getByRole('link', { name: 'applying to teach' })).toHaveAttribute('href', '/teach')
    await expect(main.getByRole('link', { name: 'the catalogue' })).toHaveAttribute('href', '/courses')
  })

  test('every header and footer link opens a real page with its own title', async ({ page }) => {
    // Sixteen page loads, each waiting for hydration (fixtures.ts).
    test.slow()
    await page.goto('/')
    await expect(page.getByRole('link', { name: 'Cookie Policy' })).toBeVisible()
    const hrefs = await page
      .locator('header a[href^="/"], footer a[href^="/"]')
      .evaluateAll((links) =>
        [...new Set(links.map((a) => a.getAttribute('href') ?? ''))].filter(
          (h) => !h.startsWith('/cart') && !h.startsWith('/login') && !h.startsWith('/signup'),
        ),
      )
    expect(hrefs.length).toBeGreaterThan(10)
    const titles = new Set<string>()
    for (const href of hrefs) {
      await page.goto(href)
      await expect(page.locator('main h1, main h2').first()).toBeVisible()
      await expect(page.getByText("Oops! We couldn't find the page you're looking for.")).toBeHidden()
      titles.add(await page.title())
      const description = await page.locator('meta[name="description"]').last().getAttribute('content')
      expect(description?.length ?? 0, `${href} has a description`).toBeGreaterThanOrEqual(20)
    }
    expect(titles.size).toBeGreaterThan(hrefs.length - 4)
  })
})

test('sitemap.xml and robots.txt are served', async ({ request }) => {
  // An index of sitemap files (decision 0029): the pages and services, then the courses.
  const sitemap = await request.get('/sitemap.xml')
  expect(sitemap.status()).toBe(200)
  const index = await sitemap.text()
  expect(index).toContain('<sitemapindex')
  const pages = await (await request.get('/sitemaps/pages.xml')).text()
  expect(pages).toContain('/service/uk-company-formation</loc>')
  const courses = await (await request.get('/sitemaps/courses-1.xml')).text()
  expect(courses).toContain('/courses/modern-react-typescript</loc>')
  const robots = await (await request.get('/robots.txt')).text()
  expect(robots).toContain('Sitemap:')
})
