// FileStorage on an S3-compatible bucket, spoken to with fetch and SigV4 (no SDK). Objects are public-read
// through S3_PUBLIC_URL (a CDN or the bucket's own URL); keys are the same as on local disk.
import { STORAGE_CACHE_CONTROL_SECONDS } from '../../src-shared/constants.ts'
import { sha256Hex, signRequest } from './sigv4.ts'
import type { FileStorage } from './storage.ts'

export interface S3Options {
  bucket: string
  region: string
  accessKeyId: string
  secretAccessKey: string
  /** e.g. http://127.0.0.1:9000 for MinIO (path-style); AWS virtual-hosted style when omitted. */
  endpoint?: string
  /** Base URL the stored files are read from; the bucket URL when omitted. */
  publicUrl?: string
  timeoutMs?: number
}

export function createS3Storage(options: S3Options): FileStorage {
  const bucketUrl = options.endpoint
    ? `${options.endpoint.replace(/\/$/, '')}/${options.bucket}`
    : `https://${options.bucket}.s3.${options.region}.amazonaws.com`
  const publicBase = (options.publicUrl ?? bucketUrl).replace(/\/$/, '')

  async function send(method: 'PUT' | 'DELETE', key: string, body?: Buffer, contentType?: string) {
    if (!/^[a-zA-Z0-9][a-zA-Z0-9/_.-]*$/.test(key) || key.includes('..')) throw new Error(`Unsafe storage key: ${key}`)
    const url = new URL(`${bucketUrl}/${key}`)
    const extra: Record<string, string> = body
      ? {
          'content-type': contentType ?? 'application/octet-stream',
          'cache-control': `public, max-age=${STORAGE_CACHE_CONTROL_SECONDS}`,
        }
      : {}
    const headers = signRequest({
      method,
      url,
      headers: extra,
      payloadHash: sha256Hex(body ?? ''),
      accessKeyId: options.accessKeyId,
      secretAccessKey: options.secretAccessKey,
      region: options.region,
    })
    const response = await fetch(url, {
      method,
      headers,
      body: body ? new Uint8Array(body) : undefined,
      signal: AbortSignal.timeout(options.timeoutMs ?? 15_000),
    })
    // S3 answers 204 to a DELETE of a missing key; some compatible stores answer 404: both mean "gone".
    if (!response.ok && !(method === 'DELETE' && response.status === 404)) {
      throw new Error(`S3 ${method} ${key} failed with ${response.status}: ${(await response.text()).slice(0, 200)}`)
    }
  }

  return {
    async put(key, data, contentType) {
      await send('PUT', key, data, contentType)
      return `${publicBase}/${key}`
    },
    async remove(key) {
      await send('DELETE', key)
    },
    keyFromUrl(url) {
      return url.startsWith(`${publicBase}/`) ? url.slice(publicBase.length + 1) : null
    },
  }
}
