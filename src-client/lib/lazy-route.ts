// The routes' code-split components, loaded on first visit. TanStack Router's own lazyRouteComponent reloads the page
// once when a page's chunk cannot be fetched (a deploy replaced it): right after a deploy, wrong when the server is
// simply out of reach, where the reload ends on the browser's own error page instead of the app's. This one asks
// the server first: it answers → a stale page, reloaded once as before; no answer → ChunkUnreachableError, which the
// route's error screen shows as "Can't reach the server" with Try Again (which fetches the chunk again). vite.config.ts
// makes the router's code splitter use it instead of the router's.
import { type ComponentType, createElement, use } from 'react'
import { NO_CONNECTION } from '#shared/outage.ts'

/** A page's code could not be fetched and the server does not answer: nothing the page can do but try again. */
export class ChunkUnreachableError extends Error {
  constructor(cause: unknown) {
    super(NO_CONNECTION, { cause })
    this.name = 'ChunkUnreachableError'
  }
}

/** The browsers' words for a module (or the style sheet Vite preloads with it) that could not be fetched. */
export function isChunkLoadError(error: unknown): error is Error {
  const message = (error as { message?: unknown } | null)?.message
  if (typeof message !== 'string') return false
  return (
    message.startsWith('Failed to fetch dynamically imported module') ||
    message.startsWith('error loading dynamically imported module') ||
    message.startsWith('Importing a module script failed') ||
    message.startsWith('Unable to preload CSS')
  )
}

/** Whether the server answers at all (any status: a database outage still answers /healthz). */
async function serverAnswers(): Promise<boolean> {
  if (typeof navigator !== 'undefined' && navigator.onLine === false) return false
  try {
    await fetch('/healthz', { cache: 'no-store', signal: AbortSignal.timeout(5000) })
    return true
  } catch {
    return false
  }
}

const isBrowser = typeof window !== 'undefined'

/**
 * The router's lazyRouteComponent (same arguments, same `.preload()` the router calls before rendering the route,
 * and again for each later visit while it has not loaded), with the server asked before a chunk that failed to load
 * reloads the page.
 */
export function lazyRouteComponent<P extends object>(
  importer: () => Promise<Record<string, unknown>>,
  exportName = 'default',
) {
  let loadPromise: Promise<void> | undefined
  let component: ComponentType<P> | undefined
  let error: unknown
  /** A stale page (the server answered): reload once for this error, as the router does. */
  let stale = false

  const load = () => {
    if (!loadPromise) {
      error = undefined
      stale = false
      loadPromise = importer()
        .then((module) => {
          if (isBrowser) {
            loadPromise = undefined
            lazy.preload = undefined
          }
          component = module[exportName] as ComponentType<P>
        })
        .catch(async (caught: unknown) => {
          if (isBrowser && isChunkLoadError(caught)) {
            stale = await serverAnswers()
            error = stale ? caught : new ChunkUnreachableError(caught)
          } else {
            error = caught
          }
          // The next visit (or Try Again, through the router's preload) fetches it again.
          loadPromise = undefined
        })
    }
    return loadPromise
  }

  const lazy = function Lazy(props: P) {
    if (error) {
      if (stale && typeof sessionStorage !== 'undefined') {
        const key = `tanstack_router_reload:${(error as Error).message}`
        if (!sessionStorage.getItem(key)) {
          sessionStorage.setItem(key, '1')
          window.location.reload()
          throw new Promise(() => {})
        }
      }
      throw error
    }
    if (!component) use(load())
    return createElement(component as ComponentType<P>, props)
  } as ComponentType<P> & { preload?: () => Promise<void> }
  lazy.preload = load
  return lazy
}
