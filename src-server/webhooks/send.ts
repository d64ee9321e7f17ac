// One POST of a signed webhook: Standard Webhooks headers, a 5-second limit for the whole exchange, the connection
// only to a checked address (targets.ts), redirects not followed. The outcome is a status code or an error text
// that names no secret.
import http from 'node:http'
import https from 'node:https'
import { guardedLookup, isPrivateLiteral, PrivateTargetError } from '../kernel/private-targets.ts'

export const WEBHOOK_TIMEOUT_MS = 5000
const MAX_RESPONSE_BYTES = 64 * 1024

export interface SignedRequest {
  url: string
  messageId: string
  /** The machine's time of sending (receivers reject a timestamp more than 5 minutes off theirs). */
  timestamp: Date
  signature: string
  body: string
}

export type SendOutcome = { ok: true; status: number } | { ok: false; status: number | null; error: string }

export function postWebhook(
  request: SignedRequest,
  options: { allowPrivate: boolean; timeoutMs?: number },
): Promise<SendOutcome> {
  const url = new URL(request.url)
  const client = url.protocol === 'https:' ? https : http
  const timeoutMs = options.timeoutMs ?? WEBHOOK_TIMEOUT_MS
  // An address written in the URL is connected to without a lookup: check it here.
  if (!options.allowPrivate && isPrivateLiteral(url)) {
    return Promise.resolve({ ok: false, status: null, error: 'Refused: the address is private' })
  }
  return new Promise((resolve) => {
    let settled = false
    const finish = (outcome: SendOutcome) => {
      if (settled) return
      settled = true
      clearTimeout(timer)
      resolve(outcome)
    }
    const req = client.request(
      url,
      {
        method: 'POST',
        // A fresh connection each time: a pooled keep-alive socket the receiver closed meanwhile would fail the
        // attempt (ECONNRESET), and every connection goes through the address check again.
        agent: false,
        lookup: guardedLookup(options.allowPrivate) as never,
        headers: {
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(request.body),
          'user-agent': 'SkillForge-Webhooks/1',
          'webhook-id': request.messageId,
          'webhook-timestamp': String(Math.floor(request.timestamp.getTime() / 1000)),
          'webhook-signature': request.signature,
        },
      },
      (res) => {
        let received = 0
        res.on('data', (chunk: Buffer) => {
          received += chunk.length
          if (received > MAX_RESPONSE_BYTES) res.destroy()
        })
        const status = res.statusCode ?? 0
        const done = () =>
          finish(
            status >= 200 && status < 300
              ? { ok: true, status }
              : { ok: false, status, error: `The endpoint answered ${status}` },
          )
        res.on('end', done)
        res.on('close', done)
        res.on('error', done)
      },
    )
    const timer = setTimeout(() => {
      req.destroy()
      finish({ ok: false, status: null, error: `No answer within ${timeoutMs / 1000} s` })
    }, timeoutMs)
    req.on('error', (error: NodeJS.ErrnoException) => {
      const reason =
        error instanceof PrivateTargetError || error.name === 'PrivateTargetError'
          ? 'Refused: the address is private'
          : `Could not connect (${error.code ?? error.message})`
      finish({ ok: false, status: null, error: reason })
    })
    req.end(request.body)
  })
}
