// Security headers (helmet) with a Content-Security-Policy the app runs under: its own scripts and styles
// (Panda's CSS files, and the inline style attributes Ark UI sets), the contact page's OpenStreetMap frame,
// PayPal's hosted buttons, YouTube/Vimeo lesson frames, and images from this site, data: and blob: URLs (avatar previews) and the
// object storage, when one is configured.
import type { IncomingMessage, ServerResponse } from 'node:http'
import type { FastifyReply } from 'fastify'
import helmet from 'helmet'
import { VIDEO_EMBED_ORIGINS } from '../../src-shared/video-url.ts'

export const CSP_SOURCES = {
  script: ["'self'", 'https://www.paypal.com'],
  // Lesson videos hosted on YouTube (privacy-enhanced mode) or Vimeo (do-not-track) play in their frames.
  frame: ['https://www.openstreetmap.org', 'https://www.paypal.com', ...VIDEO_EMBED_ORIGINS],
  img: ["'self'", 'data:', 'blob:', 'https://www.paypalobjects.com'],
  connect: ["'self'", 'https://www.paypal.com'],
  style: ["'self'", "'unsafe-inline'"],
}

/** tRPC's answers: JSON for the app's own pages, never a document a browser renders. */
export const API_PREFIX = '/trpc/'

/**
 * Every answer carries its request id and security headers, worked out once at start-up and set on each reply by the
 * first hook (http/request-checks.ts). (@fastify/helmet built helmet's middleware again, parsing every CSP directive,
 * on each request: decision 0030.) Pages and files get helmet's block; tRPC's JSON answers get the API block
 * (apiSecurityHeaders). Server-rendered pages add their script nonce to the policy set here (http/ssr.ts).
 */
export function responseHeaders(options: { secure: boolean; extraImageOrigins?: string[] }) {
  const security = securityHeaders(options)
  const api = apiSecurityHeaders(security)
  return (reply: FastifyReply, requestId: string, url: string): void => {
    reply.header('x-request-id', requestId)
    reply.headers(url.startsWith(API_PREFIX) ? api : security)
  }
}

/**
 * The security headers of an API's JSON answer (OWASP's REST security cheat sheet): a policy that allows nothing and
 * no framing, no content sniffing, same-origin reads, and HSTS where the pages have it — the values the pages' block
 * has. The rest of helmet's block (the pages' 600-character policy, COOP, Origin-Agent-Cluster, the referrer policy
 * and the legacy X- headers) governs documents, which these answers never are, and Node checks and copies every header
 * of every answer: at 1M courses the full block was 40 % of the course page's cost over a bare server (decision 0079).
 */
export function apiSecurityHeaders(pageHeaders: Record<string, string>): Record<string, string> {
  const kept = ['cross-origin-resource-policy', 'x-content-type-options', 'strict-transport-security']
  return {
    'content-security-policy': "default-src 'none'; frame-ancestors 'none'",
    ...Object.fromEntries(
      kept.filter((name) => name in pageHeaders).map((name) => [name, pageHeaders[name] as string]),
    ),
  }
}

/** The headers helmet sets with our options (its middleware run once against a response that records them). */
export function securityHeaders(options: { secure: boolean; extraImageOrigins?: string[] }): Record<string, string> {
  const setHeaders = helmet({
    contentSecurityPolicy: {
      useDefaults: true,
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: CSP_SOURCES.script,
        frameSrc: CSP_SOURCES.frame,
        imgSrc: [...CSP_SOURCES.img, ...(options.extraImageOrigins ?? [])],
        connectSrc: CSP_SOURCES.connect,
        styleSrc: CSP_SOURCES.style,
        mediaSrc: ["'self'", 'blob:'],
        objectSrc: ["'none'"],
        frameAncestors: ["'self'"],
        formAction: ["'self'"],
        // Only over HTTPS: on plain-HTTP development and test servers it would break every sub-resource.
        upgradeInsecureRequests: options.secure ? [] : null,
      },
    },
    strictTransportSecurity: options.secure ? { maxAge: 15_552_000, includeSubDomains: true } : false,
    // Popups of the payment providers need to talk back to this page.
    crossOriginOpenerPolicy: { policy: 'same-origin-allow-popups' },
    referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
  })
  const headers: Record<string, string> = {}
  const recorder = {
    setHeader(name: string, value: unknown) {
      headers[name.toLowerCase()] = String(value)
    },
    removeHeader(name: string) {
      delete headers[name.toLowerCase()]
    },
  }
  setHeaders({} as IncomingMessage, recorder as unknown as ServerResponse, (error) => {
    if (error) throw error
  })
  return headers
}
