// AWS Signature Version 4 for S3-compatible APIs (AWS S3, MinIO, R2, …): enough for PUT and DELETE of objects.
import { createHash, createHmac } from 'node:crypto'

export interface SigningInput {
  method: string
  url: URL
  /** Headers to sign besides host, x-amz-date and x-amz-content-sha256 (names in any case). */
  headers?: Record<string, string>
  payloadHash: string
  accessKeyId: string
  secretAccessKey: string
  region: string
  service?: string
  now?: Date
}

export const sha256Hex = (data: string | Buffer) => createHash('sha256').update(data).digest('hex')
const hmac = (key: string | Buffer, data: string) => createHmac('sha256', key).update(data).digest()

/** RFC 3986 encoding, as SigV4 wants it (S3 keeps '/' in paths). */
function uriEncode(value: string, keepSlash: boolean): string {
  return encodeURIComponent(value)
    .replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`)
    .replace(/%2F/g, keepSlash ? '/' : '%2F')
}

/** Returns the headers to send, Authorization included. */
export function signRequest(input: SigningInput): Record<string, string> {
  const now = input.now ?? new Date()
  const amzDate = now
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d{3}/, '')
  const day = amzDate.slice(0, 8)
  const headers: Record<string, string> = {
    host: input.url.host,
    'x-amz-content-sha256': input.payloadHash,
    'x-amz-date': amzDate,
  }
  for (const [name, value] of Object.entries(input.headers ?? {})) headers[name.toLowerCase()] = value.trim()
  const names = Object.keys(headers).sort()
  const canonicalQuery = [...input.url.searchParams.entries()]
    .map(([k, v]) => `${uriEncode(k, false)}=${uriEncode(v, false)}`)
    .sort()
    .join('&')
  const canonicalRequest = [
    input.method,
    uriEncode(decodeURIComponent(input.url.pathname), true),
    canonicalQuery,
    ...names.map((name) => `${name}:${headers[name]}`),
    '',
    names.join(';'),
    input.payloadHash,
  ].join('\n')
  const scope = `${day}/${input.region}/${input.service ?? 's3'}/aws4_request`
  const stringToSign = ['AWS4-HMAC-SHA256', amzDate, scope, sha256Hex(canonicalRequest)].join('\n')
  let key = hmac(`AWS4${input.secretAccessKey}`, day)
  for (const part of [input.region, input.service ?? 's3', 'aws4_request']) key = hmac(key, part)
  const signature = createHmac('sha256', key).update(stringToSign).digest('hex')
  const { host: _host, ...rest } = headers
  return {
    ...rest,
    authorization: `AWS4-HMAC-SHA256 Credential=${input.accessKeyId}/${scope}, SignedHeaders=${names.join(';')}, Signature=${signature}`,
  }
}
