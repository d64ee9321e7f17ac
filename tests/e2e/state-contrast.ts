// Text contrast in the states axe does not see: each link and button while hovered, disabled buttons, and input
// placeholders. Colours are read from the browser (getComputedStyle, converted through a canvas so oklch and
// friends work) and composited the way the page paints them: every ancestor's background, each element's
// opacity. Elements over an image or gradient are skipped (no single background to measure) and counted.
import type { Page } from '@playwright/test'

export interface ContrastFinding {
  what: string
  ratio: number
  required: number
  fg: string
  bg: string
}

/** Paint-order layers from the root to the element, read in the page. */
interface Layer {
  bg: [number, number, number, number]
  opacity: number
  image: boolean
}
interface Sample {
  what: string
  fg: [number, number, number, number]
  layers: Layer[]
  large: boolean
}

/** What COLLECT installs on window. */
type Helpers = { __sample: (element: Element, what: string, pseudo?: string) => Sample }

const COLLECT = `(() => {
  const ctx = document.createElement('canvas').getContext('2d', { willReadFrequently: true })
  window.__rgba = (color) => {
    ctx.clearRect(0, 0, 1, 1)
    ctx.fillStyle = '#000'
    ctx.fillStyle = color
    ctx.fillRect(0, 0, 1, 1)
    const [r, g, b, a] = ctx.getImageData(0, 0, 1, 1).data
    return a === 0 ? [0, 0, 0, 0] : [r, g, b, a / 255]
  }
  window.__sample = (element, what, pseudo) => {
    const style = getComputedStyle(element, pseudo)
    const layers = []
    for (let node = element; node; node = node.parentElement) {
      const s = getComputedStyle(node)
      layers.unshift({
        bg: window.__rgba(s.backgroundColor),
        opacity: Number(s.opacity),
        image: s.backgroundImage !== 'none',
      })
    }
    const size = parseFloat(style.fontSize)
    const weight = Number(style.fontWeight) || 400
    return { what, fg: window.__rgba(style.color), layers, large: size >= 24 || (size >= 18.66 && weight >= 700) }
  }
})()`

const over = (top: number[], bottom: number[]): number[] => {
  const a = top[3]! + bottom[3]! * (1 - top[3]!)
  if (a === 0) return [0, 0, 0, 0]
  return [0, 1, 2].map((i) => (top[i]! * top[3]! + bottom[i]! * bottom[3]! * (1 - top[3]!)) / a).concat(a)
}
const mix = (from: number[], to: number[], amount: number) => from.map((v, i) => v + (to[i]! - v) * amount)

/** The pixel under the text (with or without the text), as the browser composites the chain of layers. */
function paint(layers: Layer[], fg: number[] | null, index = 0, backdrop = [255, 255, 255, 1]): number[] {
  const layer = layers[index]!
  let inside = over(layer.bg, backdrop)
  inside = index === layers.length - 1 ? (fg ? over(fg, inside) : inside) : paint(layers, fg, index + 1, inside)
  return mix(backdrop, inside, layer.opacity)
}

const luminance = (rgb: number[]) => {
  const [r, g, b] = rgb.slice(0, 3).map((v) => {
    const c = v / 255
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4
  })
  return 0.2126 * r! + 0.7152 * g! + 0.0722 * b!
}
export const contrast = (a: number[], b: number[]) => {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x)
  return (hi! + 0.05) / (lo! + 0.05)
}
const css = (c: number[]) => `rgb(${c.slice(0, 3).map(Math.round).join(' ')})`

function judge(sample: Sample): ContrastFinding | 'skipped' | null {
  if (sample.layers.some((layer) => layer.image)) return 'skipped'
  const fgPixel = paint(sample.layers, sample.fg)
  const bgPixel = paint(sample.layers, null)
  const ratio = contrast(fgPixel, bgPixel)
  const required = sample.large ? 3 : 4.5
  return ratio + 0.005 < required ? { what: sample.what, ratio, required, fg: css(fgPixel), bg: css(bgPixel) } : null
}

const CONTROLS = 'a[href], button, [role="button"], [role="tab"], [role="menuitem"], summary'

/**
 * Hovers every visible link and button with text on the page (the mouse, not a forced state, so :hover styles on
 * the element and its ancestors apply) and measures its text; then disabled buttons and placeholders.
 */
export async function stateContrast(
  page: Page,
): Promise<{ findings: ContrastFinding[]; checked: number; skipped: number }> {
  // Transitions would leave the colours half-way when measured.
  await page.addStyleTag({
    content: '*, *::before, *::after { transition: none !important; animation: none !important }',
  })
  await page.evaluate(COLLECT)
  const count = await page.locator(CONTROLS).count()
  const findings: ContrastFinding[] = []
  let checked = 0
  let skipped = 0
  const record = (sample: Sample) => {
    const verdict = judge(sample)
    if (verdict === 'skipped') skipped++
    else {
      checked++
      if (verdict) findings.push(verdict)
    }
  }

  for (let index = 0; index < count; index++) {
    const target = await page
      .locator(CONTROLS)
      .nth(index)
      .evaluate((element) => {
        const text = (element as HTMLElement).innerText?.trim()
        if (!text || element.closest('[inert], [aria-hidden="true"]')) return null
        if (element.matches(':disabled, [aria-disabled="true"]')) return null // measured as disabled below
        element.scrollIntoView({ block: 'center', inline: 'nearest' })
        const box = element.getBoundingClientRect()
        if (box.width < 1 || box.height < 1) return null
        const hit = document.elementFromPoint(box.x + box.width / 2, box.y + box.height / 2)
        if (!hit || !(element === hit || element.contains(hit))) return null // covered by something else
        return { x: box.x + box.width / 2, y: box.y + box.height / 2, text: text.slice(0, 40) }
      })
    if (!target) continue
    await page.mouse.move(target.x, target.y)
    const samples: Sample[] = await page
      .locator(CONTROLS)
      .nth(index)
      .evaluate((element, text) => {
        // Each piece of text inside the control (a card link holds a title, a price…), as painted while hovered.
        const texts = [element, ...element.querySelectorAll('*')].filter(
          (node) =>
            [...node.childNodes].some((child) => child.nodeType === Node.TEXT_NODE && child.textContent?.trim()) &&
            node.getClientRects().length > 0,
        )
        return texts
          .slice(0, 6)
          .map((node) =>
            (window as unknown as Helpers).__sample(node, `hovered ${element.tagName.toLowerCase()} "${text}"`),
          )
      }, target.text)
    for (const sample of samples) record(sample)
  }
  await page.mouse.move(0, 0)

  const disabled = await page
    .locator('button:disabled, [aria-disabled="true"]')
    .evaluateAll((elements) =>
      elements
        .filter((element) => (element as HTMLElement).innerText?.trim() && element.getClientRects().length)
        .map((element) =>
          (window as unknown as Helpers).__sample(element, `disabled "${(element as HTMLElement).innerText.trim()}"`),
        ),
    )
  for (const sample of disabled) record(sample)

  const placeholders = await page
    .locator('input[placeholder], textarea[placeholder]')
    .evaluateAll((elements) =>
      elements
        .filter((element) => element.getClientRects().length && !(element as HTMLInputElement).value)
        .map((element) =>
          (window as unknown as Helpers).__sample(
            element,
            `placeholder "${element.getAttribute('placeholder')}"`,
            '::placeholder',
          ),
        ),
    )
  for (const sample of placeholders) record(sample)

  return { findings, checked, skipped }
}
