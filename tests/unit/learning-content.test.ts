// Lesson Markdown is rendered to sanitised HTML; watched ranges merge; video addresses become privacy embeds;
// Range headers parse.
import { describe, expect, it } from 'vitest'
import { parseRange } from '../../src-server/learning/byte-range.ts'
import { renderMarkdown } from '../../src-server/learning/markdown.ts'
import { mergeRanges, watchedEnough, watchedSeconds } from '../../src-server/learning/ranges.ts'
import { parseVideoUrl } from '../../src-shared/video-url.ts'

describe('renderMarkdown', () => {
  it('renders Markdown: headings, emphasis, lists, code, links', () => {
    const html = renderMarkdown('## Title\n\nSome **bold** and `code`.\n\n- one\n- two\n\n[docs](https://example.com)')
    expect(html).toContain('<h2>Title</h2>')
    expect(html).toContain('<strong>bold</strong>')
    expect(html).toContain('<code>code</code>')
    expect(html).toContain('<li>one</li>')
    expect(html).toContain('<a href="https://example.com" rel="noopener noreferrer nofollow">docs</a>')
  })

  /** No dangerous element, no event-handler attribute on any tag, no script or data URL in a link or image. */
  function expectSafe(html: string) {
    expect(html).not.toMatch(/<(script|iframe|style|svg|object|embed)/i)
    expect(html).not.toMatch(/<[^>]+\son[a-z]+\s*=/i)
    expect(html).not.toMatch(/(href|src)\s*=\s*"\s*(javascript|data|vbscript):/i)
  }

  it.each([
    '<script>alert(1)</script>',
    '<img src=x onerror=alert(1)>',
    '[click](javascript:alert(1))',
    '[click](JaVaScRiPt:alert(1))',
    '[click](java\tscript:alert(1))',
    '[x](data:text/html;base64,PHNjcmlwdD4=)',
    '![x](javascript:alert(1))',
    '<a href="javascript:alert(1)" onclick="x()">a</a>',
    '<iframe src="https://evil.example"></iframe>',
    '<style>body{display:none}</style>',
    '<svg onload=alert(1)>',
    '<https://example.com" onmouseover="alert(1)>',
  ])('renders %s harmlessly', (source) => {
    expectSafe(renderMarkdown(source))
  })

  it('renders "# Heading" as an h2, under the page\'s own h1', () => {
    expect(renderMarkdown('# Welcome\n\n## Part')).toBe('<h2>Welcome</h2>\n<h2>Part</h2>\n')
  })

  it('shows raw HTML in the source as text, not markup', () => {
    expect(renderMarkdown('<b>hi</b>')).toBe('<p>&lt;b&gt;hi&lt;/b&gt;</p>\n')
  })

  it('keeps https images and drops http ones', () => {
    expect(renderMarkdown('![chart](https://example.com/c.png)')).toContain(
      '<img src="https://example.com/c.png" alt="chart" />',
    )
    expect(renderMarkdown('![chart](http://example.com/c.png)')).not.toContain('src="http://')
  })
})

describe('watched ranges', () => {
  it('merges overlapping and touching ranges, sorted, clamped to the video', () => {
    expect(
      mergeRanges(
        [
          [50, 60],
          [0, 10],
          [5, 20],
          [20, 30],
          [95, 140],
        ],
        100,
      ),
    ).toEqual([
      [0, 30],
      [50, 60],
      [95, 100],
    ])
  })

  it('drops empty, inverted and negative ranges; a repeated write adds nothing', () => {
    const once = mergeRanges(
      [
        [10, 10],
        [30, 20],
        [-5, 5],
      ],
      60,
    )
    expect(once).toEqual([[0, 5]])
    expect(mergeRanges([...once, ...once], 60)).toEqual(once)
  })

  it('seeking past the end counts only what was played', () => {
    // Watched 0–30, jumped to 95 and played to the end of a 100 s video: 35 s, not 100.
    const ranges = mergeRanges(
      [
        [0, 30],
        [95, 100],
      ],
      100,
    )
    expect(watchedSeconds(ranges)).toBe(35)
    expect(watchedEnough(35, 100)).toBe(false)
    expect(watchedEnough(90, 100)).toBe(true)
  })
})

describe('parseVideoUrl', () => {
  it.each([
    ['https://www.youtube.com/watch?v=dQw4w9WgXcQ', 'https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ'],
    ['https://youtu.be/dQw4w9WgXcQ', 'https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ'],
    ['https://vimeo.com/76979871', 'https://player.vimeo.com/video/76979871?dnt=1'],
    ['https://player.vimeo.com/video/76979871', 'https://player.vimeo.com/video/76979871?dnt=1'],
  ])('%s → %s', (address, embed) => {
    expect(parseVideoUrl(address)?.embedUrl).toBe(embed)
  })
  it.each([
    'https://evil.example/watch?v=dQw4w9WgXcQ',
    'javascript:alert(1)',
    'https://youtube.com/watch?v=<x>',
    'nope',
  ])('refuses %s', (address) => {
    expect(parseVideoUrl(address)).toBeNull()
  })
})

describe('parseRange', () => {
  it('reads one range of bytes', () => {
    expect(parseRange(undefined, 100)).toBeNull()
    expect(parseRange('bytes=0-9', 100)).toEqual({ start: 0, end: 9 })
    expect(parseRange('bytes=90-', 100)).toEqual({ start: 90, end: 99 })
    expect(parseRange('bytes=-10', 100)).toEqual({ start: 90, end: 99 })
    expect(parseRange('bytes=50-500', 100)).toEqual({ start: 50, end: 99 })
    expect(parseRange('bytes=100-', 100)).toBe('unsatisfiable')
    expect(parseRange('bytes=0-1,5-6', 100)).toBeNull()
  })
})
