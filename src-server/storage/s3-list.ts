// Reads one page of an S3 ListObjectsV2 answer (XML). Only the fields the upload sweep needs: each object's
// key and last-modified time, and the token of the next page. No XML library: the answer's shape is fixed.
import type { StoredFile } from './storage.ts'

export interface ListPage {
  files: StoredFile[]
  /** Set when the listing is truncated: pass it back as continuation-token for the next page. */
  nextContinuationToken?: string
}

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" }

function unescapeXml(text: string): string {
  return text.replace(/&(#x[0-9a-fA-F]+|#\d+|amp|lt|gt|quot|apos);/g, (_match, entity: string) => {
    if (entity.startsWith('#x')) return String.fromCodePoint(Number.parseInt(entity.slice(2), 16))
    if (entity.startsWith('#')) return String.fromCodePoint(Number.parseInt(entity.slice(1), 10))
    return ENTITIES[entity] ?? ''
  })
}

function element(xml: string, name: string): string | undefined {
  const match = new RegExp(`<${name}>([^<]*)</${name}>`).exec(xml)
  return match ? unescapeXml(match[1] ?? '') : undefined
}

export function parseListPage(xml: string): ListPage {
  if (!/<ListBucketResult[\s>]/.test(xml)) throw new Error('S3 list answer is not a ListBucketResult')
  const files: StoredFile[] = []
  for (const [, block = ''] of xml.matchAll(/<Contents>([\s\S]*?)<\/Contents>/g)) {
    const key = element(block, 'Key')
    const lastModified = new Date(element(block, 'LastModified') ?? '')
    if (key === undefined || Number.isNaN(lastModified.getTime())) throw new Error('S3 list entry without key or date')
    files.push({ key, lastModified })
  }
  const truncated = element(xml, 'IsTruncated') === 'true'
  const nextContinuationToken = truncated ? element(xml, 'NextContinuationToken') : undefined
  if (truncated && !nextContinuationToken) throw new Error('S3 list is truncated but gives no continuation token')
  return { files, nextContinuationToken }
}
