// No form submits with GET but a search (issue 27): each <form> in the client says how it goes when the browser
// sends it itself (before hydration or without JavaScript). method="post" only where the server answers that page's
// form (src-server/http/native-forms.ts) and the page reads the answer; method="get" only for search; every other
// form is sent by its script alone ({...SCRIPT_ONLY_FORM}: a native submit goes nowhere).
import { readdirSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { NATIVE_FORM_PAGES } from '../../src-server/http/native-forms.ts'

/**
 * Forms that post to a plain route of the server which answers them itself, named by its shared constant: the
 * sign-in hand-off's Continue (HANDOFF_ISSUE_PATH, src-server/http/sign-in-handoff.ts; decision 0063).
 */
const ROUTE_ACTIONS = ['{HANDOFF_ISSUE_PATH}']

const CLIENT = path.resolve(import.meta.dirname, '../../src-client')
const files = readdirSync(CLIENT, { recursive: true, withFileTypes: true })
  .filter((entry) => entry.isFile() && entry.name.endsWith('.tsx'))
  .map((entry) => path.join(entry.parentPath, entry.name))

/** Each <form …> opening tag of the client, with its file. */
const forms = files.flatMap((file) =>
  [...readFileSync(file, 'utf8').matchAll(/<form\b[^>]*>/g)].map((match) => ({
    file: path.relative(CLIENT, file),
    tag: match[0],
  })),
)
const methodOf = (tag: string) =>
  tag.includes('{...SCRIPT_ONLY_FORM}') ? 'script' : (/\bmethod="(\w+)"/.exec(tag)?.[1] ?? 'none')

describe('client forms', () => {
  it('are found (the check reads real files)', () => {
    expect(forms.length).toBeGreaterThan(20)
  })

  it('each say how they are sent, and GET only for a search', () => {
    const undeclared = forms.filter(({ tag }) => methodOf(tag) === 'none').map(({ file }) => file)
    expect(undeclared).toEqual([])
    const gets = forms.filter(({ tag }) => methodOf(tag) === 'get')
    expect(gets.map(({ file }) => file)).toEqual(['routes/courses/index.tsx'])
    for (const { tag } of gets) expect(tag).toMatch(/aria-label="[^"]*search"/i)
  })

  it('post only where the server answers the page, and read its answer', () => {
    const readPage = (file: string) =>
      /useNativeFormResult\('([^']+)'\)/.exec(readFileSync(path.join(CLIENT, file), 'utf8'))?.[1]
    // A form shown on other pages too (Resend verification e-mail) names the page that answers it (action="…").
    // A mailed link's no-script button (components/auth/PostLinkToken.tsx) posts to the page its caller names.
    const linkButtons = files.flatMap((file) =>
      [...readFileSync(file, 'utf8').matchAll(/<PostLinkToken\b[^>]*\baction="([^"]+)"/g)].map((match) => match[1]),
    )
    expect(linkButtons.length).toBeGreaterThan(1)
    const pagesPosted = forms
      .filter(({ tag }) => methodOf(tag) === 'post')
      .filter(({ tag }) => !ROUTE_ACTIONS.some((action) => tag.includes(`action=${action}`)))
      .filter(({ file }) => file !== 'components/auth/PostLinkToken.tsx')
      .map(({ tag, file }) => /\baction="([^"]+)"/.exec(tag)?.[1] ?? readPage(file))
      .concat(linkButtons)
    expect([...new Set(pagesPosted)].toSorted()).toEqual(NATIVE_FORM_PAGES.toSorted())
    const pagesRead = new Set(files.map((file) => readPage(path.relative(CLIENT, file))))
    for (const page of NATIVE_FORM_PAGES) expect(pagesRead).toContain(page)
  })
})
