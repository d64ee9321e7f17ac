// A creator uploads a lesson video at /studio/uploads (VideoUpload over tus): the upload survives the browser going
// offline mid-way and a page reload, continues where it stopped, and the finished video is listed with its length.
// The file is a real MP4 padded with a trailing `free` box to 20 MB (three 8 MB pieces), still judged a valid video;
// each PATCH is held back a moment so the test can cut the connection or reload between pieces.
import { mkdtemp, readFile, writeFile } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import type { Page, Request } from '@playwright/test'
import { buyPlan, makeCreator } from '../support/creator-uploads.ts'
import { expect, test } from './fixtures.ts'

const PIECE = 8 * 1024 * 1024

async function paddedVideo(name: string): Promise<string> {
  const mp4 = await readFile(path.resolve('public/media/promo-1.mp4'))
  const total = 20 * 1024 * 1024
  const free = Buffer.alloc(total - mp4.length)
  free.writeUInt32BE(free.length, 0)
  free.write('free', 4, 'ascii')
  const file = path.join(await mkdtemp(path.join(os.tmpdir(), 'e2e-video-')), name)
  await writeFile(file, Buffer.concat([mp4, free]))
  return file
}

/** Holds every tus PATCH back for `ms`, and records the offsets the browser sends. */
async function slowPatches(page: Page, ms: number) {
  const offsets: number[] = []
  const posts: string[] = []
  page.on('request', (request: Request) => {
    if (!request.url().includes('/api/uploads/tus')) return
    if (request.method() === 'PATCH') offsets.push(Number(request.headers()['upload-offset']))
    if (request.method() === 'POST') posts.push(request.url())
  })
  await page.route('**/api/uploads/tus/**', async (route) => {
    if (route.request().method() === 'PATCH') await new Promise((resolve) => setTimeout(resolve, ms))
    await route.continue().catch(() => {}) // the page went offline or away meanwhile
  })
  return { offsets, posts }
}

const finishedPatch = (page: Page, offset: number) =>
  page.waitForResponse(
    (response) => response.request().method() === 'PATCH' && response.headers()['upload-offset'] === String(offset),
    { timeout: 30_000 },
  )

test.describe('resumable video uploads', () => {
  test('continues after the connection drops mid-upload', async ({ page, context, db, login }) => {
    test.setTimeout(90_000)
    const user = await login()
    await makeCreator(db, user)
    await buyPlan(db, user, 'basic')
    const file = await paddedVideo('offline-lesson.mp4')
    await slowPatches(page, 1200)

    await page.goto('/studio/uploads')
    await expect(page.getByRole('heading', { name: 'My video uploads' })).toBeVisible()
    await expect(page.getByTestId('storage-used')).toContainText('0 KB of 10 GB video storage used (Basic plan)')
    const firstPiece = finishedPatch(page, PIECE)
    await page.getByLabel('Lesson video (MP4, MOV or WebM, up to 4 GB)').setInputFiles(file)
    await expect(page.getByRole('progressbar', { name: 'Uploading offline-lesson.mp4' })).toBeVisible()
    await firstPiece
    await expect(page.getByTestId('video-upload-percent')).toHaveText(/^(4\d|[5-9]\d)%$/)

    await context.setOffline(true)
    await expect(page.getByTestId('video-upload-status')).toContainText('Connection lost', { timeout: 30_000 })
    await expect(page.getByRole('button', { name: 'Resume' })).toBeVisible()
    await context.setOffline(false)

    await expect(page.getByRole('status').filter({ hasText: 'offline-lesson.mp4 uploaded.' })).toBeVisible({
      timeout: 45_000,
    })
    const row = page.getByTestId('upload-row').filter({ hasText: 'offline-lesson.mp4' })
    await expect(row).toContainText('20 MB · 6 s · Not used yet')
    await expect(page.getByTestId('storage-used')).toContainText('20 MB of 10 GB')
    const stored = await db
      .selectFrom('creator_uploads')
      .select(['status', 'size_bytes', 'duration_seconds'])
      .where('user_id', '=', user.id)
      .execute()
    expect(stored).toEqual([{ status: 'stored', size_bytes: String(20 * 1024 * 1024), duration_seconds: 6 }])
  })

  test('resumes after a page reload when the same file is chosen again, and pauses on request', async ({
    page,
    db,
    login,
  }) => {
    test.setTimeout(90_000)
    const user = await login()
    await makeCreator(db, user)
    await buyPlan(db, user, 'basic')
    const file = await paddedVideo('reload-lesson.mp4')
    const sent = await slowPatches(page, 1200)

    await page.goto('/studio/uploads')
    const input = page.getByLabel('Lesson video (MP4, MOV or WebM, up to 4 GB)')
    const firstPiece = finishedPatch(page, PIECE)
    await input.setInputFiles(file)
    await firstPiece
    await page.reload()

    // The page remembers the unfinished upload; choosing the file again continues from the server's offset.
    await expect(page.getByTestId('video-upload-remembered')).toContainText('reload-lesson.mp4 (20 MB)')
    const postsBefore = sent.posts.length
    const offsetsBefore = sent.offsets.length
    await input.setInputFiles(file)
    await expect(page.getByRole('button', { name: 'Pause' })).toBeVisible()
    await page.getByRole('button', { name: 'Pause' }).click()
    await expect(page.getByTestId('video-upload-status')).toContainText('Paused')
    await page.getByRole('button', { name: 'Resume' }).focus()
    await page.keyboard.press('Enter')
    await expect(page.getByRole('status').filter({ hasText: 'reload-lesson.mp4 uploaded.' })).toBeVisible({
      timeout: 45_000,
    })
    expect(sent.posts.length).toBe(postsBefore)
    const afterReload = sent.offsets.slice(offsetsBefore)
    expect(afterReload.length).toBeGreaterThan(0)
    expect(Math.min(...afterReload)).toBeGreaterThanOrEqual(PIECE)
    await expect(page.getByTestId('upload-row').filter({ hasText: 'reload-lesson.mp4' })).toContainText('20 MB · 6 s')
  })

  test('shows the server refusal of a file that is not a video, on a phone', async ({ page, db, login }) => {
    await page.setViewportSize({ width: 390, height: 844 })
    const user = await login()
    await makeCreator(db, user)
    await buyPlan(db, user, 'basic')
    await page.goto('/studio/uploads')
    await page.getByLabel('Lesson video (MP4, MOV or WebM, up to 4 GB)').setInputFiles({
      name: 'notes.mp4',
      mimeType: 'video/mp4',
      buffer: Buffer.from('this is not a video '.repeat(500)),
    })
    await expect(page.getByRole('alert')).toContainText('Please select an MP4, MOV or WebM video')
    await expect(page.getByRole('button', { name: 'Choose another file' })).toBeVisible()
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)
    expect(overflow).toBeLessThanOrEqual(0)
    expect(await db.selectFrom('creator_uploads').select('id').where('user_id', '=', user.id).execute()).toEqual([])
  })
})
