// A rendered page's head carries the rules its markup uses (decision 0081), so the server reads the page's stream
// before sending the head; a stream still going 250 ms after its first chunk gets the whole stylesheet instead, and
// nothing of the page is lost either way (src-server/http/ssr.ts sendRenderedPage).
import Fastify from 'fastify'
import { afterEach, describe, expect, it } from 'vitest'
import { pageStylesheet } from '../../src-server/http/page-styles.ts'
import { type PageTemplate, STYLES_SLOT, sendRenderedPage } from '../../src-server/http/ssr.ts'
import { WHOLE_STYLESHEET_META } from '../../src-shared/page-styles.ts'

const WHOLE = '@layer utilities{.a{color:red}.b{color:blue}.c{color:green}}'
const TEMPLATE: PageTemplate = {
  head: `<!doctype html><html><head>${STYLES_SLOT}`,
  body: '</head><body><div id="root">',
  tail: '</div></body></html>',
  stylesheet: pageStylesheet(WHOLE, '/assets/app-1.css'),
}

/** A server entry whose page streams `chunks`, waiting `pauseMs` before the second one. */
function entryStreaming(chunks: string[], pauseMs: number) {
  return {
    async render() {
      const encoder = new TextEncoder()
      const stream = new ReadableStream<Uint8Array>({
        async start(controller) {
          for (const [index, chunk] of chunks.entries()) {
            if (index === 1 && pauseMs) await new Promise((resolve) => setTimeout(resolve, pauseMs))
            controller.enqueue(encoder.encode(chunk))
          }
          controller.close()
        },
      })
      return new Response(stream, { headers: { 'content-type': 'text/html' } })
    },
  }
}

const apps: ReturnType<typeof Fastify>[] = []
afterEach(async () => {
  await Promise.all(apps.splice(0).map((app) => app.close()))
})

async function pageFrom(chunks: string[], pauseMs: number): Promise<string> {
  const app = Fastify()
  apps.push(app)
  app.get('/page', async (request, reply) => {
    await sendRenderedPage(entryStreaming(chunks, pauseMs) as never, TEMPLATE, request, reply, 200, () => ({}))
    return reply
  })
  const response = await app.inject({ method: 'GET', url: '/page' })
  expect(response.statusCode).toBe(200)
  return response.body
}

describe('a rendered page’s styles and its stream', () => {
  const chunks = ['<title>Page</title><p class="a">one</p>', '<p class="b">two</p>']

  it('sends the rules the whole page uses, and the whole stylesheet’s address, when the stream ends in time', async () => {
    const html = await pageFrom(chunks, 0)
    expect(html).toContain(
      `<style>@layer utilities{.a{color:red}.b{color:blue}}</style><meta name="${WHOLE_STYLESHEET_META}" content="/assets/app-1.css">`,
    )
    expect(html).toContain('<p class="a">one</p><p class="b">two</p></div></body></html>')
  })

  it('sends the whole stylesheet, and still every chunk in order, when the stream is slow', async () => {
    const html = await pageFrom(chunks, 400)
    expect(html).toContain(`<style>${WHOLE}</style>`)
    expect(html).not.toContain(WHOLE_STYLESHEET_META)
    expect(html).toContain('<p class="a">one</p><p class="b">two</p></div></body></html>')
  })
})
