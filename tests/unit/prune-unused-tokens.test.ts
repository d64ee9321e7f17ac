import { readdirSync, readFileSync } from 'node:fs'
import path from 'node:path'
import postcss from 'postcss'
import { describe, expect, it } from 'vitest'
import pruneUnusedTokens from '../../scripts/postcss/prune-unused-tokens.cjs'

const TOKEN_NAME =
  /^--(colors|spacing|sizes|fonts|font-sizes|font-weights|line-heights|letter-spacings|radii|shadows|borders|durations|easings|animations|blurs|aspect-ratios|z-index|opacity|gradients|breakpoints)-/

async function pruned(css: string): Promise<string> {
  return (await postcss([pruneUnusedTokens()]).process(css, { from: undefined })).css
}

const SHEET = `@layer tokens{:where(:root,:host){--colors-brand-600:#2553e0;--colors-accent:var(--colors-brand-600);--colors-unused:#000;--spacing-4:1rem;--aspect-ratios-square:1 / 1}}
@layer base{html{color:var(--colors-accent)}}
@layer utilities{.p_4{padding:var(--spacing-4)}.c_own{--colors-local:red;color:var(--colors-local)}}`

describe('prune-unused-tokens (the stylesheet keeps only the design tokens something reads)', () => {
  it('drops a token nothing names and keeps the ones rules name, directly or through another token', async () => {
    const css = await pruned(SHEET)
    expect(css).not.toContain('--colors-unused')
    expect(css).not.toContain('--aspect-ratios-square')
    expect(css).toContain('--spacing-4:1rem')
    expect(css).toContain('--colors-accent:var(--colors-brand-600)')
    // Only through --colors-accent, which base reads.
    expect(css).toContain('--colors-brand-600:#2553e0')
  })

  it('leaves custom properties outside the tokens layer alone', async () => {
    expect(await pruned(SHEET)).toContain('.c_own{--colors-local:red;color:var(--colors-local)}')
  })

  it('left the built stylesheet every variable it reads (after npm run build)', () => {
    const assets = path.resolve('dist/client/assets')
    let files: string[] = []
    try {
      files = readdirSync(assets).filter((file) => file.endsWith('.css'))
    } catch {
      return // not built: the two cases above still hold the rule
    }
    for (const file of files) {
      const css = readFileSync(path.join(assets, file), 'utf8')
      const defined = new Set(Array.from(css.matchAll(/(--[\w-]+)\s*:/g), (match) => match[1] ?? ''))
      const read = new Set(Array.from(css.matchAll(/var\(\s*(--[\w-]+)\s*\)/g), (match) => match[1] ?? ''))
      // Variables a component sets at runtime (Ark's toasts: --x, --y, --height…) are defined by no rule; a design
      // token's name starts with its category.
      const missing = [...read].filter((name) => TOKEN_NAME.test(name) && !defined.has(name))
      expect(missing, `${file} reads variables it no longer defines`).toEqual([])
    }
  })
})
