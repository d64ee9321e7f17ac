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

/**
 * Every answer carries its request id and the same security headers: helmet's, worked out once at start-up and set on
 * each reply by the first hook (http/request-checks.ts). (@fastify/helmet built helmet's middleware again, parsing
 * every CSP directive, on each request: decision 0030.) Server-rendered pages add their script nonce to the policy
 * set here (http/ssr.ts).
 */
export function responseHeaders(options: { secure: boolean; extraImageOrigins?: string[] }) {
  const security = securityHeaders(options)
  return (reply: FastifyReply, requestId: string): void => {
    reply.header('x-request-id', requestId)
    reply.headers(security)
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
