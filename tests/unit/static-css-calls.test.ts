// The build-time replacement of Panda's literal css() calls (scripts/vite/static-css-calls.ts, decision 0078): the
// string written in place of a call is the one Panda's runtime gives, and a call the runtime must compute is kept.
import { parseAst } from 'rolldown/parseAst'
import { describe, expect, it } from 'vitest'
import { css, cva } from '#styled-system/css'
import { inlineStaticCssCalls, recipeTable } from '../../scripts/vite/static-css-calls.ts'
import { staticRecipe } from '../../src-client/lib/static-recipe.ts'

function inline(code: string) {
  // biome-ignore lint/suspicious/noExplicitAny: the parser's Program is read as the plain ESTree the transform takes
  return inlineStaticCssCalls(code, parseAst(code) as any, css)
}

describe('inlining literal css() calls at build time', () => {
  it('writes the class names the runtime gives, conditions, shorthands and responsive arrays included', () => {
    const style = {
      display: 'flex',
      px: 4,
      mt: -2,
      color: { base: 'gray.700', _hover: 'blue.600' },
      gridTemplateColumns: ['1fr', null, 'repeat(2, 1fr)'],
      '&:focus-visible': { outline: '2px solid' },
      md: { fontSize: 'lg' },
    }
    const code = `import { css } from '#styled-system/css'
export const card = css({ display: 'flex', px: 4, mt: -2, color: { base: 'gray.700', _hover: 'blue.600' },
  gridTemplateColumns: ['1fr', null, \`repeat(2, 1fr)\`], '&:focus-visible': { outline: '2px solid' }, md: { fontSize: 'lg' } })
export const both = css({ p: 2 }, { p: 3, m: 1 })`
    const result = inline(code)
    expect(result?.replaced).toBe(2)
    expect(result?.kept).toBe(0)
    expect(result?.code).toContain(`export const card = ${JSON.stringify(css(style))}`)
    expect(result?.code).toContain(`export const both = ${JSON.stringify(css({ p: 2 }, { p: 3, m: 1 }))}`)
    expect(result?.code).not.toMatch(/\bcss\(/)
    expect(css(style)).toContain('md:fs_lg')
  })

  it('keeps every call with something computed in it, and the rest of the module as it was', () => {
    const code = `import { css as style } from '../../styled-system/css'
const tone = 'red.500'
export const a = style({ color: tone })
export const b = style({ color: active ? tone : 'blue.500' })
export const c = style({ ...base, p: 2 })
export const d = style(base)
export const e = style({ [key]: 1 })
export const f = style({ p: 2 })`
    const result = inline(code)
    expect(result?.replaced).toBe(1)
    expect(result?.kept).toBe(5)
    expect(result?.code).toContain(`export const f = ${JSON.stringify(css({ p: 2 }))}`)
    for (const kept of [
      'a = style({ color: tone })',
      'b = style({ color: active ? tone',
      'c = style({ ...base',
      'd = style(base)',
      'e = style({ [key]: 1 })',
    ])
      expect(result?.code).toContain(kept)
  })

  it('leaves a module alone when css is not Panda’s, or is declared again inside it', () => {
    expect(inline(`import { css } from 'some-other-lib'\nexport const a = css({ p: 2 })`)).toBeNull()
    expect(inline(`export const css = (x) => x\nexport const a = css({ p: 2 })`)).toBeNull()
    expect(
      inline(
        `import { css } from '#styled-system/css'\nexport function f(css) { return css({ p: 2 }) }\nexport const a = css({ p: 2 })`,
      ),
    ).toBeNull()
  })

  it('writes a value chosen by a condition as the condition between the class names of its branches', () => {
    const code = `import { css } from '#styled-system/css'
export const f = (mine, internal) => css({ p: '3', _hover: { bg: 'brand.50' }, bg: internal ? '#fffbeb' : mine ? 'brand.50' : 'surface', color: mine ? 'danger' : undefined })`
    const result = inline(code)
    expect(result?.replaced).toBe(1)
    expect(result?.kept).toBe(0)
    const written = result?.code.replace(/^import .*\n/, '').replace('export const f =', 'return') ?? ''
    const f = new Function(written) as () => (mine: boolean, internal: boolean) => string
    const classes = (names: string) => names.split(' ').sort()
    for (const [mine, internal] of [
      [true, false],
      [false, false],
      [false, true],
      [true, true],
    ] as const) {
      const runtime = css({
        p: '3',
        _hover: { bg: 'brand.50' },
        bg: internal ? '#fffbeb' : mine ? 'brand.50' : 'surface',
        color: mine ? 'danger' : undefined,
      })
      // The same classes as the runtime gives (atomic: one per property and value), in another order.
      expect(classes(f()(mine, internal))).toEqual(classes(runtime))
    }
  })

  it('turns a literal cva() recipe into a table lookup that gives what the runtime gives for every choice', () => {
    const recipe = {
      base: { display: 'inline-flex', h: { base: '11', md: '10' } },
      variants: {
        variant: { primary: { bg: 'accent' }, ghost: { bg: 'transparent', _hover: { bg: 'brand.50' } } },
        size: { sm: { h: '8' }, md: { px: '4' } },
        wrap: { true: { h: 'auto', whiteSpace: 'normal' } },
      },
      compoundVariants: [{ variant: 'primary', size: 'sm', css: { h: { base: '11', md: '8' } } }],
      defaultVariants: { variant: 'primary', size: 'md' },
    }
    const { table, keys, defaults } = recipeTable(recipe, cva)
    const lookup = staticRecipe(table, keys, defaults)
    const runtime = cva(recipe as Parameters<typeof cva>[0])
    for (const props of [
      {},
      { variant: 'ghost' },
      { size: 'sm' },
      { variant: 'primary', size: 'sm' },
      { wrap: true },
      { variant: 'ghost', size: 'sm', wrap: false },
    ])
      expect(lookup(props), JSON.stringify(props)).toBe(runtime(props as never))
    const code = `import { cva } from '#styled-system/css'\nexport const button = cva(${JSON.stringify(recipe)})`
    const result = inlineStaticCssCalls(code, parseAst(code) as never, {
      css,
      cva,
      recipeModule: '/lib/static-recipe.ts',
    })
    expect(result?.code).toContain('import { staticRecipe as __staticRecipe } from "/lib/static-recipe.ts"')
    expect(result?.code).toContain(`export const button = __staticRecipe(${JSON.stringify(table)}`)
    expect(result?.code).not.toMatch(/\bcva\(/)
  })
})
