// Adaptive video (issue 37, decision 0064): a creator uploads a small video at /studio/uploads, the studio shows it
// processing and then "Ready"; once it is a course's lesson, a buyer's player streams its HLS renditions (hls.js in
// Chromium, which plays no HLS natively) through the access-checked playlist route, and the video plays.
import { mkdtemp } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { createCreatorCourse } from '../support/creator-courses.ts'
import { buyPlan, makeCreator } from '../support/creator-uploads.ts'
import { createUser } from '../support/factories.ts'
import { buyerOfCourse } from '../support/learning.ts'
import { makeTestVideo } from '../support/test-video.ts'
import { expect, signInAs, test } from './fixtures.ts'

async function tinyVideo(): Promise<string> {
  const file = path.join(await mkdtemp(path.join(os.tmpdir(), 'e2e-hls-')), 'hls-lesson.mp4')
  makeTestVideo(process.env.FFMPEG_PATH ?? 'ffmpeg', file, 4, { faststart: true })
  return file
}

test('an uploaded video is processed into HLS and a buyer plays it', async ({ page, db, login, baseURL }) => {
  test.setTimeout(60_000)
  const creator = await login()
  await makeCreator(db, creator)
  await buyPlan(db, creator, 'basic')
  const file = await tinyVideo()

  await page.goto('/studio/uploads')
  await page.getByLabel('Lesson video (MP4, MOV or WebM, up to 4 GB)').setInputFiles(file)
  const row = page.getByTestId('upload-row').filter({ hasText: 'hls-lesson.mp4' })
  await expect(row.getByTestId('upload-transcode')).toHaveText('Ready', { timeout: 30_000 })
  await expect(row.getByRole('link', { name: 'Download the original of hls-lesson.mp4' })).toBeVisible()

  // The upload becomes the second lesson of a published course of the creator (the studio's own steps are
  // covered by studio.spec.ts), and a learner buys the course.
  const upload = await db
    .selectFrom('creator_uploads')
    .select(['id', 'storage_key'])
    .where('user_id', '=', creator.id)
    .executeTakeFirstOrThrow()
  const course = await createCreatorCourse(db, creator, { status: 'published' })
  const courseId = course.id
  const lessonId = course.lessonIds[1] as string
  await db
    .updateTable('lessons')
    .set({ kind: 'video', video_key: upload.storage_key, video_duration_seconds: 4 })
    .where('id', '=', lessonId)
    .execute()
  await db.updateTable('creator_uploads').set({ lesson_id: lessonId }).where('id', '=', upload.id).execute()
  const learner = await createUser(db)
  await buyerOfCourse(db, courseId, learner)
  await page.context().clearCookies()
  await signInAs(page, baseURL!, db, learner)

  const playlists: string[] = []
  const segmentRanges: string[] = []
  page.on('response', (response) => {
    if (response.url().includes('/api/learn/hls/')) playlists.push(`${response.status()} ${response.url()}`)
  })
  page.on('request', (request) => {
    if (request.url().endsWith('/360p/stream.mp4')) segmentRanges.push(request.headers().range ?? '')
  })
  await page.goto(`/learn/${courseId}/${lessonId}`)
  const video = page.getByTestId('lesson-video')
  await expect(video).toHaveAttribute('data-hls', 'true')
  await expect(video).toHaveAttribute('poster', `/api/learn/hls/${lessonId}/poster.jpg`)
  await video.evaluate(async (element: HTMLVideoElement) => {
    element.muted = true
    await element.play()
  })
  await expect
    .poll(() => video.evaluate((element: HTMLVideoElement) => element.currentTime), { timeout: 20_000 })
    .toBeGreaterThan(1)
  // hls.js plays it (Chromium has MSE): it asks for the segments' byte ranges, where the browser's own HLS player
  // would ask for the whole file from byte 0 (a slow first frame, decision 0064).
  expect(
    playlists.some((entry) => /^20[06] .*\/master\.m3u8$/.test(entry)),
    playlists.join('\n'),
  ).toBe(true)
  expect(playlists.some((entry) => /^206 .*\/360p\/stream\.mp4$/.test(entry))).toBe(true)
  expect(segmentRanges.length).toBeGreaterThan(1)
  expect(
    segmentRanges.every((range) => /^bytes=\d+-\d+$/.test(range)),
    segmentRanges.join(', '),
  ).toBe(true)
})
