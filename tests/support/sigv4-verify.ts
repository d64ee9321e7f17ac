// The server side of AWS Signature Version 4, as S3 checks it: recomputes a request's signature from what
// arrived on the wire and compares. Written from AWS's specification, independently of the client the app
// uses (aws4fetch), and itself checked against AWS's published S3 examples (tests/unit/s3-signing.test.ts).
import { createHash, createHmac, timingSafeEqual } from 'node:crypto'

export interface Credentials {
  accessKeyId: string
  secretAccessKey: string
  /** When set, a request must carry it in x-amz-security-token, and sign that header. */
  sessionToken?: string
  region: string
}

export interface ArrivedRequest {
  method: string
  /** The request target as sent: path and query, still percent-encoded. */
  target: string
  /** Header names in lower case, as Node gives them. */
  headers: Record<string, string | string[] | undefined>
  body: Buffer
}

export type Verdict = { ok: true } | { ok: false; code: string; message: string }

const MAX_CLOCK_SKEW_MS = 15 * 60 * 1000

export const sha256Hex = (data: string | Buffer) => createHash('sha256').update(data).digest('hex')
const hmac = (key: string | Buffer, data: string) => createHmac('sha256', key).update(data).digest()

/** RFC 3986 percent-encoding of every byte but A-Z a-z 0-9 - . _ ~ (and '/' in paths). */
function uriEncode(value: string, keepSlash: boolean): string {
  let out = ''
  for (const byte of Buffer.from(value, 'utf8')) {
    const char = String.fromCharCode(byte)
    if (/[A-Za-z0-9\-._~]/.test(char) || (keepSlash && char === '/')) out += char
    else out += `%${byte.toString(16).toUpperCase().padStart(2, '0')}`
  }
  return out
}

/** A query component as form-encoded ('+' is a space). */
function decodeQueryPart(component: string): string {
  return decodeURIComponent(component.replace(/\+/g, '%20'))
}

export function canonicalUri(target: string): string {
  const rawPath = target.split('?')[0] ?? '/'
  return uriEncode(decodeURIComponent(rawPath), true)
}

export function canonicalQuery(target: string): string {
  const query = target.includes('?') ? target.slice(target.indexOf('?') + 1) : ''
  return query
    .split('&')
    .filter(Boolean)
    .map((pair) => {
      const [name = '', value = ''] = pair.split(/=(.*)/s)
      return [uriEncode(decodeQueryPart(name), false), uriEncode(decodeQueryPart(value), false)] as const
    })
    .sort(([k1, v1], [k2, v2]) => (k1 < k2 ? -1 : k1 > k2 ? 1 : v1 < v2 ? -1 : v1 > v2 ? 1 : 0))
    .map(([name, value]) => `${name}=${value}`)
    .join('&')
}

function headerValue(headers: ArrivedRequest['headers'], name: string): string | undefined {
  const value = headers[name]
  if (value === undefined) return undefined
  return (Array.isArray(value) ? value.join(',') : value).trim().replace(/\s+/g, ' ')
}

/** The signature a request with these parts must carry. */
export function expectedSignature(input: {
  method: string
  target: string
  headers: ArrivedRequest['headers']
  signedHeaders: string[]
  payloadHash: string
  amzDate: string
  scope: string
  secretAccessKey: string
}): string {
  const canonicalRequest = [
    input.method,
    canonicalUri(input.target),
    canonicalQuery(input.target),
    ...input.signedHeaders.map((name) => `${name}:${headerValue(input.headers, name) ?? ''}`),
    '',
    input.signedHeaders.join(';'),
    input.payloadHash,
  ].join('\n')
  const stringToSign = ['AWS4-HMAC-SHA256', input.amzDate, input.scope, sha256Hex(canonicalRequest)].join('\n')
  const [day = '', region = '', service = '', terminator = ''] = input.scope.split('/')
  let key = hmac(`AWS4${input.secretAccessKey}`, day)
  for (const part of [region, service, terminator]) key = hmac(key, part)
  return createHmac('sha256', key).update(stringToSign).digest('hex')
}

const refuse = (code: string, message: string): Verdict => ({ ok: false, code, message })

/** Checks a request's Authorization header as S3 would. */
export function verifyRequest(request: ArrivedRequest, credentials: Credentials, now = new Date()): Verdict {
  const authorization = headerValue(request.headers, 'authorization')
  const match = authorization?.match(
    /^AWS4-HMAC-SHA256 Credential=([^/,\s]+)\/(\d{8}\/[^/]+\/[^/]+\/aws4_request),\s*SignedHeaders=([a-z0-9;-]+),\s*Signature=([0-9a-f]{64})$/,
  )
  if (!match) return refuse('AccessDenied', 'Missing or malformed Authorization header')
  const [, accessKeyId, scope = '', signedList = '', signature = ''] = match
  if (accessKeyId !== credentials.accessKeyId) return refuse('InvalidAccessKeyId', 'Unknown access key')
  const [day, region, service] = scope.split('/')
  if (region !== credentials.region || service !== 's3') return refuse('AuthorizationHeaderMalformed', scope)

  const amzDate = headerValue(request.headers, 'x-amz-date') ?? ''
  const time = Date.parse(amzDate.replace(/^(\d{4})(\d\d)(\d\d)T(\d\d)(\d\d)(\d\d)Z$/, '$1-$2-$3T$4:$5:$6Z'))
  if (Number.isNaN(time) || amzDate.slice(0, 8) !== day) return refuse('AccessDenied', 'Bad x-amz-date')
  if (Math.abs(now.getTime() - time) > MAX_CLOCK_SKEW_MS) return refuse('RequestTimeTooSkewed', amzDate)

  const signedHeaders = signedList.split(';')
  for (const required of ['host', 'x-amz-date', 'x-amz-content-sha256']) {
    if (!signedHeaders.includes(required)) return refuse('AccessDenied', `${required} is not signed`)
  }
  const token = headerValue(request.headers, 'x-amz-security-token')
  if (credentials.sessionToken !== undefined || token !== undefined) {
    if (token !== credentials.sessionToken) return refuse('InvalidToken', 'The provided token is malformed or invalid')
    if (!signedHeaders.includes('x-amz-security-token')) return refuse('AccessDenied', 'The token is not signed')
  }

  const payloadHash = headerValue(request.headers, 'x-amz-content-sha256') ?? ''
  // UNSIGNED-PAYLOAD, and the AWS SDK's streamed bodies (`aws-chunked`, the checksum in a trailer the fake checks),
  // sign the literal instead of the body's hash.
  const unsigned = payloadHash === 'UNSIGNED-PAYLOAD' || payloadHash === 'STREAMING-UNSIGNED-PAYLOAD-TRAILER'
  if (!unsigned && payloadHash !== sha256Hex(request.body)) {
    return refuse('XAmzContentSHA256Mismatch', 'The body does not match x-amz-content-sha256')
  }
  const expected = expectedSignature({
    method: request.method,
    target: request.target,
    headers: request.headers,
    signedHeaders,
    payloadHash,
    amzDate,
    scope,
    secretAccessKey: credentials.secretAccessKey,
  })
  if (!timingSafeEqual(Buffer.from(expected), Buffer.from(signature))) {
    return refuse(
      'SignatureDoesNotMatch',
      'The request signature we calculated does not match the signature you provided',
    )
  }
  return { ok: true }
}
