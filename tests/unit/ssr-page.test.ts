// The server renderer's page assembly (src-server/http/ssr.ts): which pages it renders, where the rendered app and
// its hoisted head tags go in the built index.html, and the CSP that lets only its own inline scripts run.

import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { pageStylesheet } from '../../src-server/http/page-styles.ts'
import {
  inlineStylesheets,
  isServerRendered,
  liftHeadTags,
  NONCE_SLOT,
  pageScripts,
  pageStyles,
  ROUTE_CHUNKS_SLOT,
  routeChunkPreloads,
  routeIdOfFile,
  STYLES_SLOT,
  splitTemplate,
  withScriptNonce,
} from '../../src-server/http/ssr.ts'
import { pageChunkName, routeOfPageChunk } from '../../src-shared/page-chunks.ts'
import { WHOLE_STYLESHEET_META } from '../../src-shared/page-styles.ts'

const INDEX = [
  '<!doctype html><html lang="en"><head><meta charset="UTF-8" />',
  '<title>SkillForge — courses, business services and plans</title>',
  '<script type="module" crossorigin src="/assets/index-abc.js"></script>',
  '<link rel="stylesheet" crossorigin href="/assets/index-abc.css">',
  '</head><body><div id="root"></div></body></html>',
].join('')

describe('server-rendered page', () => {
  it('renders public pages and leaves signed-in areas and the payment pages to the client', () => {
    for (const path of ['/', '/courses', '/courses/x', '/pricing', '/cart', '/login', '/certificates/c1', '/accounts'])
      expect(isServerRendered(path), path).toBe(true)
    // The player too: the lesson comes with the page (its loaders run with the learner's session).
    expect(isServerRendered('/learn/c/l1')).toBe(true)
    // The staff log-in form works before its JavaScript arrives, like the shop's.
    expect(isServerRendered('/admin/login')).toBe(true)
    for (const path of ['/admin', '/admin/orders', '/account', '/account/premium', '/documents/invoice/1'])
      expect(isServerRendered(path), path).toBe(false)
    for (const path of ['/auth/callback', '/payment', '/payment-success', '/school-invite', '/member/s1'])
      expect(isServerRendered(path), path).toBe(false)
  })

  it('splits index.html at </head> and inside #root, and refuses a template without them', () => {
    const template = splitTemplate(INDEX)
    expect(template).not.toBeNull()
    expect(template?.head.endsWith('index-abc.css">')).toBe(true)
    expect(template?.body).toBe('</head><body><div id="root">')
    expect(template?.tail).toBe('</div></body></html>')
    expect(`${template?.head}${template?.body}${template?.tail}`).toBe(INDEX)
    expect(splitTemplate('<html><head></head><body><main></main></body></html>')).toBeNull()
  })

  it("moves the page's hoisted title and meta into the head, in place of the shell's title", () => {
    const template = splitTemplate(INDEX)!
    const chunk =
      '<link rel="preload" as="image" href="/x.png"/><title>Pricing | SkillForge</title>' +
      '<meta name="description" content="Plans &amp; prices"/><div class="page"><title>not hoisted</title></div>'
    const { before, rest } = liftHeadTags(template, chunk)
    expect(before).not.toContain('SkillForge — courses')
    expect(before).toContain(
      '<title>Pricing | SkillForge</title><meta name="description" content="Plans &amp; prices"/>',
    )
    expect(before.indexOf('<title>Pricing')).toBeLessThan(before.indexOf('</head>'))
    expect(before.endsWith('<div id="root">')).toBe(true)
    expect(rest).toBe('<div class="page"><title>not hoisted</title></div>')
  })

  it("keeps the shell's title when the page hoists none", () => {
    const template = splitTemplate(INDEX)!
    const { before, rest } = liftHeadTags(template, '<div>app</div>')
    expect(before).toBe(template.head + template.body)
    expect(rest).toBe('<div>app</div>')
  })

  it('adds the nonce to script-src only (styles keep unsafe-inline for the inline style attributes)', () => {
    const csp = "default-src 'self';script-src 'self' https://www.paypal.com;style-src 'self' 'unsafe-inline'"
    expect(withScriptNonce(csp, 'abc')).toBe(
      "default-src 'self';script-src 'nonce-abc' 'self' https://www.paypal.com;style-src 'self' 'unsafe-inline'",
    )
    expect(withScriptNonce("script-src-attr 'none';script-src 'self'", 'n')).toBe(
      "script-src-attr 'none';script-src 'nonce-n' 'self'",
    )
  })
})

describe('inlined stylesheets', () => {
  it('puts a slot for the page’s own rules in place of a small built stylesheet and keeps links to missing files', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'ssr-css-'))
    try {
      await mkdir(path.join(dir, 'assets'))
      await writeFile(path.join(dir, 'assets', 'index-abc.css'), '.a{color:red}.b{color:blue}\n')
      const { html, stylesheet } = inlineStylesheets(INDEX, dir)
      expect(html).toContain(STYLES_SLOT)
      expect(html).not.toContain('rel="stylesheet"')
      expect(stylesheet?.href).toBe('/assets/index-abc.css')
      expect(stylesheet?.whole).toBe('.a{color:red}.b{color:blue}')
      const missing = '<link rel="stylesheet" crossorigin href="/assets/gone.css">'
      expect(inlineStylesheets(missing, dir)).toEqual({ html: missing, stylesheet: null })
    } finally {
      await rm(dir, { recursive: true, force: true })
    }
  })

  it('fills the slot with the rules the markup uses and the whole stylesheet’s address, or the whole stylesheet', () => {
    const stylesheet = pageStylesheet('@layer utilities{.a{color:red}.b{color:blue}}', '/assets/app-1.css')
    expect(pageStyles(stylesheet, '<p class="b">x</p>')).toBe(
      `<style>@layer utilities{.b{color:blue}}</style><meta name="${WHOLE_STYLESHEET_META}" content="/assets/app-1.css">`,
    )
    // The page's stream had not ended when its head went out: its markup is not known.
    expect(pageStyles(stylesheet, null)).toBe('<style>@layer utilities{.a{color:red}.b{color:blue}}</style>')
  })

  it('preloads the entry and its imports from the head and starts the entry once the document is parsed', () => {
    const built = INDEX.replace(
      '<link rel="stylesheet"',
      '<link rel="modulepreload" crossorigin href="/assets/framework-1.js">\n<link rel="modulepreload" crossorigin href="/assets/auth-2.js">\n<link rel="stylesheet"',
    )
    const html = pageScripts(built)
    expect(html).not.toContain('<script type="module"')
    expect(html).toContain('<link rel="stylesheet" crossorigin href="/assets/index-abc.css">')
    // The guard (http/early-clicks.ts) under the page's nonce, then the preloads at low priority (the entry's first; the
    // page is whole without them, its LCP image goes first), then the slot for
    // the page's own route chunks, then the script that starts the entry.
    const order = [
      `<script nonce="${NONCE_SLOT}">`,
      '__releaseEarlyClick',
      '<link rel="modulepreload" crossorigin fetchpriority="low" href="/assets/index-abc.js">',
      '<link rel="modulepreload" crossorigin fetchpriority="low" href="/assets/framework-1.js">',
      '<link rel="modulepreload" crossorigin fetchpriority="low" href="/assets/auth-2.js">',
      ROUTE_CHUNKS_SLOT,
      '<link rel="stylesheet"',
      'DOMContentLoaded',
      '</head>',
    ].map((part) => html.indexOf(part))
    expect(order.every((at) => at >= 0)).toBe(true)
    expect(order).toEqual([...order].sort((x, y) => x - y))
    const scripts = [...html.matchAll(new RegExp(`<script nonce="${NONCE_SLOT}">([\\s\\S]*?)</script>`, 'g'))]
    expect(scripts.map((script) => script[1]?.includes('__releaseEarlyClick'))).toEqual([true, false])
    // The starter adds the entry once the document is parsed (at once when it already is), never twice.
    const start = scripts[1]?.[1] as string
    for (const readyState of ['loading', 'interactive']) {
      const added: Record<string, string>[] = []
      const listeners: (() => void)[] = []
      const document = {
        readyState,
        head: { appendChild: (node: Record<string, string>) => added.push({ ...node }) },
        createElement: (tag: string) => ({ tag }),
        addEventListener: (type: string, listener: () => void) =>
          type === 'DOMContentLoaded' && listeners.push(listener),
      }
      new Function('document', start)(document)
      expect(added.length).toBe(readyState === 'loading' ? 0 : 1)
      for (const listener of listeners) listener()
      expect(added).toEqual([{ tag: 'script', type: 'module', crossOrigin: '', src: '/assets/index-abc.js' }])
    }
    // Without Vite's preloads, the slot follows the entry's preload.
    expect(pageScripts(INDEX)).toContain(
      `<link rel="modulepreload" crossorigin fetchpriority="low" href="/assets/index-abc.js">${ROUTE_CHUNKS_SLOT}`,
    )
    // A page without Vite's entry script is left as it is.
    expect(pageScripts('<html><head></head><body></body></html>')).toBe('<html><head></head><body></body></html>')
  })

  it("names routes as the router does and preloads a page's own route chunks after the entry", async () => {
    expect(
      ['index', 'courses/index', 'courses/$courseId', 'learn/$courseId.$lessonId', '_auth/account_.premium'].map(
        routeIdOfFile,
      ),
    ).toEqual(['/', '/courses/', '/courses/$courseId', '/learn/$courseId/$lessonId', '/_auth/account_/premium'])
    const dir = await mkdtemp(path.join(tmpdir(), 'sf-manifest-'))
    try {
      await mkdir(path.join(dir, '.vite'))
      const manifest = {
        'index.html': { file: 'assets/index-abc.js', isEntry: true, imports: ['_framework.js'] },
        '_framework.js': { file: 'assets/framework-1.js' },
        '_card.js': { file: 'assets/card-3.js', imports: ['_framework.js'] },
        'routes/courses/index.tsx?tsr-split=component': {
          file: 'assets/courses-2.js',
          imports: ['_card.js', 'index.html'],
        },
        'routes/courses/index.tsx?tsr-split=errorComponent': { file: 'assets/courses-9.js' },
        // A first page's component, in the chunk named after its route (vite.config.ts pageGroup).
        [`_${pageChunkName('learn/$courseId.$lessonId')}-4.js`]: {
          file: `assets/${pageChunkName('learn/$courseId.$lessonId')}-4.js`,
          name: pageChunkName('learn/$courseId.$lessonId'),
          imports: ['_card.js', '_framework.js'],
        },
      }
      await writeFile(path.join(dir, '.vite', 'manifest.json'), JSON.stringify(manifest))
      expect(Object.fromEntries(routeChunkPreloads(dir))).toEqual({
        '/courses/': ['/assets/courses-2.js', '/assets/card-3.js'],
        '/learn/$courseId/$lessonId': ['/assets/page~learn~~-courseId.~-lessonId-4.js', '/assets/card-3.js'],
      })
      for (const route of ['index', 'courses/$courseId', 'cart_.restore', '_auth/account_.premium', 'learn/$a.$b'])
        expect(routeOfPageChunk(pageChunkName(route))).toBe(route)
      expect(pageChunkName('courses/$courseId')).toMatch(/^[\w.~-]+$/)
      expect(routeOfPageChunk('shared')).toBeNull()
      expect(routeChunkPreloads(path.join(dir, 'missing')).size).toBe(0)
    } finally {
      await rm(dir, { recursive: true, force: true })
    }
    // The server fills the slot with the page's route chunks, after the entry's (sendRenderedPage).
    expect(pageScripts(INDEX).indexOf(ROUTE_CHUNKS_SLOT)).toBeGreaterThan(pageScripts(INDEX).indexOf('index-abc.js'))
  })
})
