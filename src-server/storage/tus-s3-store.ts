// The tus S3 store of resumable uploads in a bucket (storage/tus-store.ts loads it on the first upload).
import { S3Store } from '@tus/s3-store'

/** The tus S3 store with the two things it keeps to itself: ranged reads of an object and a server-side copy. */
export class LessonS3Store extends S3Store {
  async readRange(id: string, start: number, length: number): Promise<Uint8Array> {
    if (length <= 0) return new Uint8Array()
    const data = await this.client.getObject({
      Bucket: this.bucket,
      Key: id,
      Range: `bytes=${start}-${start + length - 1}`,
    })
    return data.Body ? await data.Body.transformToByteArray() : new Uint8Array()
  }

  /**
   * Removes everything the upload left in the bucket: its multipart upload when one is still open, and the objects
   * named by its id (the completed object, `.info`, `.part`). The store's own remove stops at the abort, which S3
   * answers NoSuchUpload once the upload completed, so a finished upload's whole copy and its `.info` stayed behind.
   */
  async discard(id: string): Promise<void> {
    await super.remove(id).catch(() => {})
    const keys = [id, this.infoKey(id), this.partKey(id, true)]
    await this.client.deleteObjects({
      Bucket: this.bucket,
      Delete: { Objects: keys.map((Key) => ({ Key })), Quiet: true },
    })
  }

  async copyTo(id: string, key: string, contentType: string): Promise<void> {
    await this.client.copyObject({
      Bucket: this.bucket,
      CopySource: `${this.bucket}/${encodeURIComponent(id)}`,
      Key: key,
      ContentType: contentType,
      CacheControl: 'private, no-store',
      MetadataDirective: 'REPLACE',
    })
  }
}
