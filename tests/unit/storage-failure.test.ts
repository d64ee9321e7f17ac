// Which errors mean "file storage failed" (answered 503 with our sentence): a StorageFailure, wherever it was wrapped,
// and only that; a procedure that meets one answers SERVICE_UNAVAILABLE with the storage sentence, never the bucket's
// words. The adapters' own failures are tested against a bucket (service-orders/service-order-files-s3) and a disk.
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { TRPCError } from '@trpc/server'
import { describe, expect, it } from 'vitest'
import { isStorageFailure, StorageFailure } from '../../src-server/kernel/storage-failure.ts'
import { createLocalStorage } from '../../src-server/storage/storage.ts'
import { toPublicTRPCError } from '../../src-server/trpc/errors.ts'
import { STORAGE_UNAVAILABLE_MESSAGE } from '../../src-shared/errors.ts'

describe('a storage failure', () => {
  it('is recognised through the causes that wrap it, and nothing else is', () => {
    const failure = new StorageFailure('S3 PUT avatars/a.png failed: 503 SlowDown')
    expect(isStorageFailure(failure)).toBe(true)
    expect(isStorageFailure(new Error('while saving', { cause: new Error('outer', { cause: failure }) }))).toBe(true)
    expect(isStorageFailure(new Error('S3 PUT avatars/a.png failed: 503 SlowDown'))).toBe(false)
    expect(isStorageFailure(undefined)).toBe(false)
  })

  it('leaves a procedure as SERVICE_UNAVAILABLE with our sentence, the bucket’s words only in the cause', () => {
    const failure = new StorageFailure('S3 GET private/x.pdf failed: 500 InternalError')
    const wrapped = new TRPCError({ code: 'INTERNAL_SERVER_ERROR', cause: failure })
    const answer = toPublicTRPCError(wrapped) as TRPCError
    expect(answer.code).toBe('SERVICE_UNAVAILABLE')
    expect(answer.message).toBe(STORAGE_UNAVAILABLE_MESSAGE)
    expect(answer.cause).toBe(wrapped)
  })

  it('is what local storage throws when the disk refuses a write, not when a file is missing', async () => {
    const root = await mkdtemp(path.join(tmpdir(), 'storage-failure-'))
    try {
      const storage = createLocalStorage(root)
      // A file where a folder must go: the write cannot happen, as on a full or read-only disk.
      await writeFile(path.join(root, 'avatars'), 'not a folder')
      await expect(storage.put('avatars/a.png', Buffer.from('x'), 'image/png')).rejects.toBeInstanceOf(StorageFailure)
      await expect(storage.remove('courses/missing.png')).resolves.toBeUndefined()
      expect(await storage.size('courses/missing.png')).toBeNull()
      expect(await storage.size('avatars/a.png')).toBeNull() // under a file, not a folder: no such file either
      await expect(storage.read('courses/missing.png')).rejects.not.toBeInstanceOf(StorageFailure)
    } finally {
      await rm(root, { recursive: true, force: true })
    }
  })

  it('is what local storage throws when the disk cannot answer a size or a read, before any byte is sent', async () => {
    const root = await mkdtemp(path.join(tmpdir(), 'storage-failure-'))
    try {
      const storage = createLocalStorage(root)
      // A name the file system refuses outright (ENAMETOOLONG), as a disk giving I/O errors refuses every read.
      const unreadable = `${'a'.repeat(300)}.png`
      await expect(storage.size(unreadable)).rejects.toBeInstanceOf(StorageFailure)
      await expect(storage.read(unreadable)).rejects.toBeInstanceOf(StorageFailure)
      await writeFile(path.join(root, 'notes.txt'), 'lesson notes')
      const chunks: Buffer[] = []
      for await (const chunk of await storage.read('notes.txt', { start: 7, end: 11 })) chunks.push(chunk as Buffer)
      expect(Buffer.concat(chunks).toString()).toBe('notes')
    } finally {
      await rm(root, { recursive: true, force: true })
    }
  })
})
