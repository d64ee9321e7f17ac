import { expect, test } from './fixtures.ts'

test.describe('home page', () => {
  test('shows featured courses from the database', async ({ page, request }) => {
    const api = await request.get('/trpc/catalog.featuredCourses')
    const featured = ((await api.json()) as { result: { data: { title: string }[] } }).result.data
    expect(featured).toHaveLength(6)

    await page.goto('/')
    const cards = page.getByTestId('course-card')
    await expect(cards).toHaveCount(featured.length)
    for (const course of featured) {
      await expect(page.getByRole('heading', { name: course.title })).toBeVisible()
    }
    await expect(page.getByRole('link', { name: 'View All Courses' })).toBeVisible()
    await expect(page).toHaveTitle(/SkillForge/)
  })

  test('footer shows the current year and its links lead to their pages', async ({ page }) => {
    await page.goto('/')
    const footer = page.getByRole('contentinfo')
    await expect(footer.getByText(`© ${new Date().getFullYear()} SkillForge`)).toBeVisible()
    await footer.getByRole('link', { name: 'Privacy Policy' }).click()
    await expect(page).toHaveURL('/privacy')
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Privacy Policy')
  })
})

test.describe('header navigation', () => {
  test('links navigate to their pages', async ({ page }) => {
    await page.goto('/')
    const nav = page.getByRole('navigation', { name: 'Main' })
    for (const [label, path] of [
      ['Services', '/services'],
      ['Pricing', '/pricing'],
      ['About Us', '/about'],
      ['Contact', '/contact'],
    ] as const) {
      await nav.getByRole('link', { name: label }).click()
      await expect(page).toHaveURL(path)
    }
    const header = page.getByRole('banner')
    await header.getByRole('link', { name: 'Log In', exact: true }).click()
    await expect(page).toHaveURL('/login')
    await header.getByRole('link', { name: 'Sign Up', exact: true }).click()
    await expect(page).toHaveURL('/signup')
    await page.getByTestId('cart-link').click()
    await expect(page).toHaveURL('/cart')
  })

  test('the Browse menu opens with the keyboard and leads to a category', async ({ page }) => {
    await page.goto('/')
    const trigger = page.getByRole('button', { name: 'Browse' })
    await trigger.focus()
    await page.keyboard.press('Enter')
    const menu = page.getByRole('menu')
    await expect(menu.getByRole('menuitem')).toHaveText(['All Courses', 'Development', 'Business', 'Marketing'])
    await menu.getByRole('menuitem', { name: 'Development' }).click()
    await expect(page).toHaveURL('/courses?category=development')
  })

  test('a press on Browse that its menu code arrives during still opens the menu', async ({ page }) => {
    // The menu's code starts loading when the pointer comes over the button (DeferredMenu). Here it arrives between
    // the press and the release, as on a slow line or in a tap: the click must not fall between two buttons.
    let letThrough = () => {}
    const pressed = new Promise<void>((resolve) => {
      letThrough = resolve
    })
    await page.route(/\/assets\/browse-menu-view-[^/]+\.js$/, async (route) => {
      await pressed
      await route.continue()
    })
    await page.goto('/')
    const box = (await page.getByRole('button', { name: 'Browse' }).boundingBox())!
    const arrived = page.waitForResponse(/\/assets\/browse-menu-view-[^/]+\.js$/)
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2)
    await page.mouse.down()
    letThrough()
    await arrived
    // Time for the arrived code to run and render before the finger lifts.
    await page.waitForTimeout(300)
    await page.mouse.up()
    await expect(page.getByRole('menu').getByRole('menuitem', { name: 'Development' })).toBeVisible()
  })
})

test.describe('not-found page', () => {
  test('a course path gets the course variant', async ({ page }) => {
    // The server answers 404 too (not 200 with a not-found page), so crawlers drop the address.
    expect((await page.goto('/courses/no-such-course'))?.status()).toBe(404)
    await expect(page.getByText('404')).toBeVisible()
    await expect(page.getByRole('heading', { name: 'Course Not Found' })).toBeVisible()
    await expect(page.getByRole('link', { name: 'Return to Home' })).toHaveAttribute('href', '/')
    await page.getByRole('link', { name: 'Browse All Courses' }).click()
    await expect(page).toHaveURL('/courses')
  })

  test('any other path gets the general variant, answered 404, and leads back home', async ({ page }) => {
    expect((await page.goto('/this/page/does-not-exist'))?.status()).toBe(404)
    await expect(page.getByText('404')).toBeVisible()
    await expect(
      page.getByRole('heading', { name: "Oops! We couldn't find the page you're looking for." }),
    ).toBeVisible()
    await page.getByRole('link', { name: 'Return to Home' }).click()
    await expect(page).toHaveURL('/')
    await expect(page.getByTestId('course-card')).toHaveCount(6)
  })
})

test.describe('mobile menu', () => {
  test.use({ viewport: { width: 390, height: 800 } })

  test('opens, shows the same links and navigates', async ({ page }) => {
    await page.goto('/')
    const mobileNav = page.getByRole('navigation', { name: 'Mobile' })
    await expect(mobileNav).toBeHidden()
    await page.getByRole('button', { name: 'Open menu' }).click()
    await expect(mobileNav).toBeVisible()
    for (const label of [
      'All Courses',
      'Development',
      'Business',
      'Marketing',
      'Services',
      'Pricing',
      'About Us',
      'Contact',
    ]) {
      await expect(mobileNav.getByRole('link', { name: label })).toBeVisible()
    }
    await mobileNav.getByRole('link', { name: 'Pricing' }).click()
    await expect(page).toHaveURL('/pricing')
    await expect(mobileNav).toBeHidden()
  })
})
