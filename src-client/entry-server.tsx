// The server renderer's entry (built by `vite build --ssr` into dist/ssr; src-server/http/ssr.ts loads it). It
// renders the matched route with its loaders' data into the page's #root and streams it, the router's and the
// query cache's dehydrated state in nonce'd inline scripts after it. No server code is bundled here: the server
// hands in a tRPC client that calls the procedures in-process with the visitor's request.
import './lib/zod-config.ts'
import { createRequestHandler, RouterServer, renderRouterToStream } from '@tanstack/react-router/ssr/server'
import type { NativeFormResult } from '../src-shared/native-form.ts'
import type { AppTrpcClient } from './lib/trpc.ts'
import { createAppRouter } from './router.tsx'

export interface RenderInput {
  /** The absolute URL of the page (origin and path with its query). */
  url: string
  headers: Headers
  trpcClient: AppTrpcClient
  nonce: string
  signal: AbortSignal
  /** The answer to a form the browser posted itself, shown by the page (src-client/lib/native-form.ts). */
  formResult?: NativeFormResult
}

/** A Response whose body is the HTML of #root's contents; a redirect Response when a route redirects. */
export async function render(input: RenderInput): Promise<Response> {
  const request = new Request(input.url, { headers: input.headers, signal: input.signal })
  const handler = createRequestHandler({
    request,
    createRouter: () =>
      createAppRouter({ trpcClient: input.trpcClient, nonce: input.nonce, formResult: input.formResult }),
  })
  return handler(({ request, responseHeaders, router }) => {
    // The matched routes, for the server to preload their chunks with the entry's (src-server/http/ssr.ts
    // ROUTE_IDS_HEADER; the header is read there, never sent).
    responseHeaders.set('x-ssr-route-ids', router.state.matches.map((match) => match.routeId).join(' '))
    return renderRouterToStream({ request, responseHeaders, router, children: <RouterServer router={router} /> })
  })
}
