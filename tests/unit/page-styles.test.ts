// A server-rendered page's own rules (src-server/http/page-styles.ts, issue 27): the utilities its markup's classes
// name, with everything that is not a utility, in the stylesheet's own order.
import { describe, expect, it } from 'vitest'
import { classesIn, pageStylesheet } from '../../src-server/http/page-styles.ts'

const SHEET = [
  '@layer reset,base,tokens,recipes,utilities;',
  '@layer reset{html{line-height:1.5}}',
  '@layer tokens{:where(:root,:host){--colors-ink:#0f172a}@keyframes spin{to{transform:rotate(360deg)}}}',
  '@layer utilities{',
  '.d_flex{display:flex}.c_ink{color:var(--colors-ink)}',
  '.before\\:content_\\"\\"::before{content:""}',
  '.\\[\\&_\\:is\\(th\\,_td\\)\\]\\:p_3 :is(th,td){padding:12px}',
  '.group:hover .group-hover\\:c_ink{color:var(--colors-ink)}',
  '@media screen and (width>=48rem){.md\\:d_flex{display:flex}.md\\:d_none{display:none}}',
  '@media screen and (width>=64rem){.\\32 xl\\:gap_4{gap:1rem}}',
  '}',
].join('')

describe('page styles', () => {
  const stylesheet = pageStylesheet(SHEET, '/assets/app.css')

  it('keeps every rule outside the utilities and only the utilities the markup names', () => {
    const css = stylesheet.rulesFor('<div class="d_flex md:d_none"><span class="other">x</span></div>')
    expect(css).toBe(
      '@layer reset,base,tokens,recipes,utilities;@layer reset{html{line-height:1.5}}' +
        '@layer tokens{:where(:root,:host){--colors-ink:#0f172a}@keyframes spin{to{transform:rotate(360deg)}}}' +
        '@layer utilities{.d_flex{display:flex}@media screen and (width>=48rem){.md\\:d_none{display:none}}}',
    )
  })

  it('reads escaped class names (quotes, brackets, a leading digit) and entities in the markup', () => {
    const css = stylesheet.rulesFor(
      '<p class="before:content_&quot;&quot; [&amp;_:is(th,_td)]:p_3"></p><p class="2xl:gap_4 group-hover:c_ink"></p>',
    )
    expect(css).toContain('.before\\:content_\\"\\"::before{content:""}')
    expect(css).toContain('.\\[\\&_\\:is\\(th\\,_td\\)\\]\\:p_3 :is(th,td){padding:12px}')
    expect(css).toContain('@media screen and (width>=64rem){.\\32 xl\\:gap_4{gap:1rem}}')
    expect(css).toContain('.group:hover .group-hover\\:c_ink{color:var(--colors-ink)}')
    expect(css).not.toContain('.d_flex')
    expect(css).not.toContain('48rem')
  })

  it('gives the whole stylesheet back when the markup uses every class', () => {
    const every =
      'd_flex c_ink before:content_&quot;&quot; [&amp;_:is(th,_td)]:p_3 group-hover:c_ink md:d_flex md:d_none 2xl:gap_4'
    expect(stylesheet.rulesFor(`<b class="${every}"></b>`)).toBe(SHEET)
    expect(stylesheet.whole).toBe(SHEET)
  })

  it('collects class names from class attributes only', () => {
    expect([...classesIn('<a class="x  y" data-class="z" href="/c">class="w"</a>')]).toEqual(['x', 'y'])
  })
})
