// sweepUnreferencedUploads on local disk and on an S3 bucket (the signature-checking fake): files no row points
// at and older than the cut-off go; referenced, fresh and foreign-prefix files stay.
import { access, mkdtemp, rm, utimes } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { insertCourse } from '../../../db/seed/factories.ts'
import type { DatabaseHandle } from '../../../src-server/kernel/db.ts'
import { replaceAvatar } from '../../../src-server/profile/editing.ts'
import { createS3Storage } from '../../../src-server/storage/s3.ts'
import { createLocalStorage, type FileStorage } from '../../../src-server/storage/storage.ts'
import { sweepUnreferencedUploads } from '../../../src-server/storage/sweep.ts'
import { createTestDatabase } from '../../support/db.ts'
import { createUser } from '../../support/factories.ts'
import { type FakeS3, startFakeS3 } from '../../support/fake-s3.ts'
import { paidServiceOrder } from '../../support/service-orders.ts'

const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
)
const TWO_DAYS_AGO = new Date(Date.now() - 2 * 24 * 60 * 60 * 1000)
const KEYS = { accessKeyId: 'AKIDSWEEP', secretAccessKey: 'sweep-secret', region: 'us-east-1' }

let database: DatabaseHandle
let bucket: FakeS3
let localDir: string
let categoryId: string

beforeAll(async () => {
  database = await createTestDatabase()
  bucket = await startFakeS3({ ...KEYS, bucket: 'shared-bucket' })
  localDir = await mkdtemp(path.join(os.tmpdir(), 'sweep-uploads-'))
  categoryId = (await database.db.selectFrom('categories').select('id').executeTakeFirstOrThrow()).id
})
afterAll(async () => {
  await bucket?.close()
  await database?.close()
  await rm(localDir, { recursive: true, force: true })
})

interface Kind {
  name: string
  /** A storage on the same files, read through the given public base (S3) — local disk ignores it. */
  storage(publicUrl?: string): FileStorage
  age(key: string, when: Date): Promise<void>
  exists(key: string): boolean | Promise<boolean>
}

const kinds: Kind[] = [
  {
    name: 'local disk',
    storage: () => createLocalStorage(localDir),
    age: (key, when) => utimes(path.join(localDir, key), when, when).catch(() => undefined),
    exists: (key) =>
      access(path.join(localDir, key)).then(
        () => true,
        () => false,
      ),
  },
  {
    name: 'S3',
    storage: (publicUrl) => createS3Storage({ ...KEYS, bucket: bucket.bucket, endpoint: bucket.endpoint, publicUrl }),
    age: async (key, when) => {
      const object = bucket.objects.get(key)
      if (object) object.lastModified = when
    },
    exists: (key) => bucket.objects.has(key),
  },
]

describe.each(kinds)('sweepUnreferencedUploads on $name', (kind) => {
  it('deletes replaced course images and orphaned avatars; keeps what rows use, fresh uploads and other files', async () => {
    const tag = kind.name === 'S3' ? 's3' : 'local'
    const storage = kind.storage('https://cdn-2.example.test/media')

    // A course saved with one image, then edited to another: the first is now referenced by nothing.
    const first = await storage.put(`courses/${tag}-first.png`, PNG, 'image/png')
    const second = await storage.put(`courses/${tag}-second.png`, PNG, 'image/png')
    const created = await insertCourse(database.db, {
      id: `sweep-${tag}`,
      title: `Sweep ${tag}`,
      category_id: categoryId,
      image_url: first,
    })
    await database.db.updateTable('courses').set({ image_url: second }).where('id', '=', created.id).execute()
    // A course that was deleted, and the image it left behind.
    await storage.put(`courses/${tag}-of-deleted-course.png`, PNG, 'image/png')
    // Uploaded for a form not saved yet: unreferenced but fresh.
    await storage.put(`courses/${tag}-just-uploaded.png`, PNG, 'image/png')
    // Not ours (another app's files in a shared bucket or folder).
    await storage.put(`reports/${tag}-quarterly.png`, PNG, 'image/png')

    // An avatar stored under an older public base; replacing it cannot match the old URL, so the old file stays.
    const user = await createUser(database.db)
    const before = kind.storage('https://cdn-1.example.test/media')
    await replaceAvatar(database.db, before, user.id, { data: PNG, type: { mime: 'image/png', ext: 'png' } })
    const oldAvatar = (
      await database.db.selectFrom('users').select('avatar_url').where('id', '=', user.id).executeTakeFirstOrThrow()
    ).avatar_url as string
    const oldAvatarKey = before.keyFromUrl(oldAvatar) as string
    await new Promise((resolve) => setTimeout(resolve, 5)) // a new avatar key (base-36 time)
    const replaced = await replaceAvatar(database.db, storage, user.id, {
      data: PNG,
      type: { mime: 'image/png', ext: 'png' },
    })
    const newAvatarKey = storage.keyFromUrl(replaced) as string
    const sameKey = kind.name === 'local disk' // local URLs do not change with S3_PUBLIC_URL: the old file went at once
    expect(await kind.exists(oldAvatarKey)).toBe(!sameKey)

    // Another user still on the old CDN URL: that file is referenced, under a base the storage no longer uses.
    const stayer = await createUser(database.db)
    await replaceAvatar(database.db, before, stayer.id, { data: PNG, type: { mime: 'image/png', ext: 'png' } })
    const stayerKey = before.keyFromUrl(
      (await database.db.selectFrom('users').select('avatar_url').where('id', '=', stayer.id).executeTakeFirstOrThrow())
        .avatar_url as string,
    ) as string

    const aged = [
      `courses/${tag}-first.png`,
      `courses/${tag}-second.png`,
      `courses/${tag}-of-deleted-course.png`,
      `reports/${tag}-quarterly.png`,
      oldAvatarKey,
      newAvatarKey,
      stayerKey,
    ]
    for (const key of aged) await kind.age(key, TWO_DAYS_AGO)

    const result = await sweepUnreferencedUploads({
      db: database.db,
      storage,
      olderThan: new Date(Date.now() - 86_400_000),
    })

    const expectedGone = [`courses/${tag}-first.png`, `courses/${tag}-of-deleted-course.png`]
    if (!sameKey) expectedGone.push(oldAvatarKey)
    expect(result.deleted.sort()).toEqual(expectedGone.sort())
    expect(result.failed).toEqual([])
    for (const key of expectedGone) expect(await kind.exists(key), key).toBe(false)
    for (const key of [
      `courses/${tag}-second.png`,
      `courses/${tag}-just-uploaded.png`,
      `reports/${tag}-quarterly.png`,
      newAvatarKey,
      stayerKey,
    ]) {
      expect(await kind.exists(key), key).toBe(true)
    }

    // A second run finds nothing more to do.
    const again = await sweepUnreferencedUploads({ db: database.db, storage })
    expect(again.deleted).toEqual([])
  })

  it('reads private service-order files back, keeps those a row names and deletes orphans', async () => {
    const tag = kind.name === 'S3' ? 's3' : 'local'
    const storage = kind.storage('https://cdn-2.example.test/media')
    const buyer = await createUser(database.db)
    const orderId = await paidServiceOrder(database.db, buyer.id)
    const kept = `private/service-orders/${orderId}/${tag}-kept.pdf`
    const orphan = `private/service-orders/${orderId}/${tag}-orphan.pdf`
    await storage.put(kept, PNG, 'application/pdf')
    await storage.put(orphan, PNG, 'application/pdf')
    await database.db
      .insertInto('service_order_files')
      .values({
        service_order_id: orderId,
        purpose: 'brief',
        storage_key: kept,
        file_name: 'kept.pdf',
        content_type: 'application/pdf',
        size_bytes: PNG.length,
      })
      .execute()
    expect(await storage.size(kept)).toBe(PNG.length)
    expect(Buffer.concat(await (await storage.read(kept)).toArray()).equals(PNG)).toBe(true)
    expect(await storage.size(`private/service-orders/${orderId}/missing.pdf`)).toBeNull()
    for (const key of [kept, orphan]) await kind.age(key, TWO_DAYS_AGO)

    const result = await sweepUnreferencedUploads({ db: database.db, storage })
    expect(result.deleted).toContain(orphan)
    expect(result.deleted).not.toContain(kept)
    expect(await kind.exists(kept)).toBe(true)
    expect(await kind.exists(orphan)).toBe(false)
  })

  it('keeps lesson videos and attachments a lesson names; deletes uploads never saved on a lesson', async () => {
    const tag = kind.name === 'S3' ? 's3' : 'local'
    const storage = kind.storage('https://cdn-3.example.test/media')
    const lesson = await database.db.selectFrom('lessons').select('id').limit(1).executeTakeFirstOrThrow()
    const video = `private/lessons/videos/${tag}-kept.webm`
    const file = `private/lessons/files/${tag}-kept.pdf`
    const orphan = `private/lessons/videos/${tag}-never-saved.webm`
    for (const key of [video, file, orphan]) await storage.put(key, PNG, 'application/octet-stream')
    await database.db
      .updateTable('lessons')
      .set({ video_key: video, kind: 'video' })
      .where('id', '=', lesson.id)
      .execute()
    await database.db
      .insertInto('lesson_attachments')
      .values({
        lesson_id: lesson.id,
        file_name: 'kept.pdf',
        storage_key: file,
        content_type: 'application/pdf',
        size_bytes: PNG.length,
      })
      .execute()
    for (const key of [video, file, orphan]) await kind.age(key, TWO_DAYS_AGO)

    const result = await sweepUnreferencedUploads({ db: database.db, storage })
    expect(result.deleted).toContain(orphan)
    expect(await kind.exists(video)).toBe(true)
    expect(await kind.exists(file)).toBe(true)
    expect(await kind.exists(orphan)).toBe(false)
  })

  it('keeps a data export its row names; deletes one no row names (its person erased, the file left behind)', async () => {
    const tag = kind.name === 'S3' ? 's3' : 'local'
    const storage = kind.storage()
    const person = await createUser(database.db)
    const kept = `private/exports/${person.id}/${tag}-kept.zip`
    const leftBehind = `private/exports/${tag}-erased/left-behind.zip`
    for (const key of [kept, leftBehind]) await storage.put(key, PNG, 'application/zip')
    await database.db
      .insertInto('data_exports')
      .values({ user_id: person.id, status: 'ready', storage_key: kept, size_bytes: PNG.length })
      .execute()
    for (const key of [kept, leftBehind]) await kind.age(key, TWO_DAYS_AGO)

    const result = await sweepUnreferencedUploads({ db: database.db, storage })
    expect(result.deleted).toContain(leftBehind)
    expect(await kind.exists(kept)).toBe(true)
    expect(await kind.exists(leftBehind)).toBe(false)
  })
})
