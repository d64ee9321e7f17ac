// Issue 16: text contrast of at least 4.5:1 (3:1 for large text) in every state axe does not see — links and
// buttons while hovered, disabled buttons, placeholders — on the key pages, for a visitor, a customer and staff.
import { expect, test } from './fixtures.ts'
import { stateContrast } from './state-contrast.ts'

const PAGES: { url: string; as: 'visitor' | 'customer' | 'staff' }[] = [
  { url: '/', as: 'visitor' },
  { url: '/courses', as: 'visitor' },
  { url: '/courses/modern-react-typescript', as: 'visitor' },
  { url: '/services', as: 'visitor' },
  { url: '/pricing', as: 'visitor' },
  { url: '/login', as: 'visitor' },
  { url: '/signup', as: 'visitor' },
  { url: '/contact', as: 'visitor' },
  { url: '/cart', as: 'customer' },
  { url: '/account', as: 'customer' },
  { url: '/admin', as: 'staff' },
  { url: '/admin/courses', as: 'staff' },
  { url: '/admin/categories', as: 'staff' },
]

for (const { url, as } of PAGES) {
  test(`${url} (${as}): hovered, disabled and placeholder text keeps its contrast`, async ({ page, login }) => {
    test.setTimeout(120_000)
    if (as === 'customer') await login()
    if (as === 'staff') await login({ role: 'admin' })
    await page.goto(url)
    await expect(page.locator('h1').first()).toBeVisible()
    await expect(page.locator('[aria-busy="true"]')).toHaveCount(0)
    const { findings, checked, skipped } = await stateContrast(page)
    test.info().annotations.push({ type: 'measured', description: `${checked} texts, ${skipped} over images` })
    expect(checked).toBeGreaterThan(3)
    expect(findings.map((f) => `${f.what}: ${f.ratio.toFixed(2)}:1 < ${f.required}:1 (${f.fg} on ${f.bg})`)).toEqual([])
  })
}

// The measure itself: it must see what a hover, opacity or a pale placeholder does to a colour.
test('the measure finds pale hover text, faded disabled buttons and pale placeholders', async ({ page }) => {
  await page.goto('/no-such-page')
  await page.setContent(`
    <style>
      a { color: #1d4ed8 } a.pale:hover { color: #a3a3a3 }
      .card { background: #1e3a8a; padding: 8px } .card a { color: #fff } .card a:hover { color: #93c5fd }
      button { color: #111; background: #fff } button:disabled { opacity: .4 }
      input.pale::placeholder { color: #c4c4c4 } input.fine::placeholder { color: #595959 }
    </style>
    <main><h1>Sample</h1>
      <a class="pale" href="#a">Pale when hovered</a> <a href="#b">Fine when hovered</a>
      <div class="card"><a href="#c">Light blue on navy</a></div>
      <button disabled>Faded</button> <button>Enabled</button>
      <input class="pale" placeholder="Pale placeholder"> <input class="fine" placeholder="Dark placeholder">
    </main>`)
  const { findings } = await stateContrast(page)
  expect(findings.map((f) => f.what).sort()).toEqual([
    'disabled "Faded"',
    'hovered a "Pale when hovered"',
    'placeholder "Pale placeholder"',
  ])
})
