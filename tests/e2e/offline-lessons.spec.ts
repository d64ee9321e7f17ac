// Offline lessons in the browser (issue 34): a Premium member saves a video lesson, the network goes away, a page
// not saved shows the offline page, the saved-lessons page opens from the service worker and the saved video plays;
// the progress made offline waits in the browser and reaches the server when the network is back. When the
// membership ends, the next start online removes the saved lesson; before that, the service worker serves a saved
// copy only within its pass and, online, only while the server still opens the lesson.
import type { Page } from '@playwright/test'
import type { Kysely } from 'kysely'
import type { Database } from '../../db/types.ts'
import { buyerOfCourse, premiumMember } from '../support/learning.ts'
import { expect, signInAs, test } from './fixtures.ts'

const COURSE = 'modern-react-typescript'

/**
 * Goes to a page (or reloads) the way a link or the reload button does. Playwright's own goto and reload waited 15 s
 * for a page the service worker serves, although it had loaded in a quarter of a second (45 of this test's 53 s);
 * each caller waits for what the new page shows instead.
 */
async function navigate(page: Page, to?: string) {
  await page.evaluate((url) => {
    setTimeout(() => (url ? window.location.assign(url) : window.location.reload()), 0)
  }, to)
}

/** The course's first members-only lesson with a video file of its own. */
function videoLesson(db: Kysely<Database>) {
  return db
    .selectFrom('lessons')
    .select(['id', 'title'])
    .where('course_id', '=', COURSE)
    .where('kind', '=', 'video')
    .where('video_key', 'is not', null)
    .where('is_preview', '=', false)
    .orderBy('position')
    .executeTakeFirstOrThrow()
}

function endPremium(db: Kysely<Database>, userId: string) {
  return db
    .updateTable('access_grants')
    .set({ ends_at: new Date(Date.now() - 60_000) })
    .where('user_id', '=', userId)
    .where('kind', '=', 'premium')
    .execute()
}

/** The keys of the lessons saved in this browser (its IndexedDB records). */
function savedKeys(page: Page) {
  return page.evaluate(
    () =>
      new Promise<string[]>((resolve, reject) => {
        const open = indexedDB.open('skillforge-offline')
        open.onerror = () => reject(open.error)
        open.onsuccess = () => {
          const keys = open.result.transaction('lessons').objectStore('lessons').getAllKeys()
          keys.onsuccess = () => {
            open.result.close()
            resolve(keys.result.map(String))
          }
        }
      }),
  )
}

/** Sets a saved lesson's pass end in its record, as a pass asked for long ago would have left it. */
function setValidUntil(page: Page, key: string, validUntil: string) {
  return page.evaluate(
    ({ key, validUntil }) =>
      new Promise<void>((resolve, reject) => {
        const open = indexedDB.open('skillforge-offline')
        open.onerror = () => reject(open.error)
        open.onsuccess = () => {
          const lessons = open.result.transaction('lessons', 'readwrite').objectStore('lessons')
          const found = lessons.get(key)
          found.onsuccess = () => {
            const put = lessons.put({ ...found.result, validUntil })
            put.onsuccess = () => {
              open.result.close()
              resolve()
            }
            put.onerror = () => reject(put.error)
          }
        }
      }),
    { key, validUntil },
  )
}

/** Saves the lesson from its player, and waits until the service worker controls the page. */
async function saveFromPlayer(page: Page, lessonId: string) {
  await page.goto(`/learn/${COURSE}/${lessonId}`)
  await page.getByRole('button', { name: 'Save for offline' }).click()
  await expect(page.getByText(/^Saved for offline \(/)).toBeVisible({ timeout: 30_000 })
  await page.waitForFunction(() => navigator.serviceWorker.controller !== null)
}

test('a saved lesson plays offline and its progress reaches the server after reconnecting', async ({
  page,
  context,
  db,
  baseURL,
}) => {
  test.setTimeout(120_000)
  const { user } = await premiumMember(db)
  const video = await videoLesson(db)
  await signInAs(page, baseURL as string, db, user)

  // Save it from the player.
  await page.goto(`/learn/${COURSE}/${video.id}`)
  await page.getByRole('button', { name: 'Save for offline' }).click()
  await expect(page.getByText(/^Saved for offline \(/)).toBeVisible({ timeout: 30_000 })
  await expect(page.getByText('Saved on this device.')).toBeVisible()

  // The saved-lessons page lists it with its size; the service worker controls the page.
  await navigate(page, '/saved')
  await expect(page.getByRole('heading', { name: 'Saved lessons' })).toBeVisible()
  const saved = page.getByTestId('saved-lesson')
  await expect(saved).toHaveCount(1)
  await expect(saved).toContainText(video.title)
  await expect(saved).toContainText(/\d+(\.\d)? (kB|MB)/)
  await page.waitForFunction(() => navigator.serviceWorker.controller !== null)

  // The network goes away: a page not saved says so; the saved lessons still open.
  await context.setOffline(true)
  await navigate(page, '/courses')
  await expect(page.getByRole('heading', { name: 'You are offline' })).toBeVisible()
  await page.getByRole('link', { name: 'Open your saved lessons' }).click()
  await expect(page.getByRole('status')).toContainText('Offline')
  await page.getByRole('button', { name: `Play ${video.title}` }).click()
  // The player opens above the list: the focus moves to its heading rather than staying on Play.
  await expect(page.getByRole('region', { name: video.title }).getByRole('heading').first()).toBeFocused()
  const player = page.getByTestId('saved-video')
  await player.evaluate(async (element: HTMLVideoElement) => {
    element.muted = true
    await element.play()
  })
  await expect
    .poll(() => player.evaluate((element: HTMLVideoElement) => element.currentTime), { timeout: 20_000 })
    .toBeGreaterThan(3)
  await player.evaluate((element: HTMLVideoElement) => element.pause())
  await expect(page.getByRole('status')).toContainText('1 progress update waiting to be sent')
  const progressOf = async () =>
    (
      await db
        .selectFrom('lesson_progress')
        .select('watched_seconds')
        .where('user_id', '=', user.id)
        .where('lesson_id', '=', video.id)
        .executeTakeFirst()
    )?.watched_seconds ?? 0
  expect(await progressOf()).toBe(0)

  // Back online: the queued progress is sent, once.
  await context.setOffline(false)
  await expect(page.getByRole('status')).toContainText('Sent 1 progress update', { timeout: 15_000 })
  await expect.poll(progressOf).toBeGreaterThan(2)

  // The membership ends: at the next start online the lesson is removed and no longer listed.
  await endPremium(db, user.id)
  await navigate(page)
  await expect(page.getByRole('status')).toContainText('Removed 1 lesson of courses you no longer hold')
  await expect(page.getByTestId('saved-lesson')).toHaveCount(0)
  await expect(page.getByText('No saved lessons yet.')).toBeVisible()
  // Its way to My courses leads to a page that answers (the account page's My courses section).
  const myCourses = page.getByRole('link', { name: 'My courses' })
  const href = await myCourses.getAttribute('href')
  expect((await page.request.get(href!)).status()).toBe(200)
  await myCourses.click()
  await expect(page.getByRole('heading', { name: 'My courses' })).toBeVisible()
})

test('the service worker serves a saved video within its pass, and not once the server refuses the lesson', async ({
  page,
  context,
  db,
  baseURL,
}) => {
  test.setTimeout(90_000)
  const { user } = await premiumMember(db)
  const video = await videoLesson(db)
  await signInAs(page, baseURL as string, db, user)
  await saveFromPlayer(page, video.id)
  const key = `${COURSE}/${video.id}`
  const media = `/api/learn/media/${video.id}`
  const fetchMedia = () =>
    page.evaluate(
      (url) =>
        fetch(url, { headers: { range: 'bytes=0-99' } }).then(
          (response) => response.status,
          () => 'failed',
        ),
      media,
    )
  const savedCopy = () =>
    page.evaluate(
      async (url) => (await (await caches.open('skillforge-saved-media-v1')).match(url)) !== undefined,
      media,
    )

  // Offline, within its pass, the copy answers; past its pass it does not (the network would have to).
  await context.setOffline(true)
  expect(await fetchMedia()).toBe(206)
  await setValidUntil(page, key, new Date(Date.now() - 60_000).toISOString())
  expect(await fetchMedia()).toBe('failed')
  await setValidUntil(page, key, new Date(Date.now() + 86_400_000).toISOString())
  expect(await fetchMedia()).toBe(206)
  await context.setOffline(false)

  // Staff end the membership now. Without /saved being opened, the copy is not served: the server's 403 answers, and
  // the lesson leaves this browser.
  await endPremium(db, user.id)
  expect(await fetchMedia()).toBe(403)
  await expect.poll(() => savedKeys(page)).toEqual([])
  expect(await savedCopy()).toBe(false)
})

test('any page started online asks for the passes again: copies of a course no longer held go before going offline', async ({
  page,
  context,
  db,
  baseURL,
}) => {
  test.setTimeout(90_000)
  const { user } = await premiumMember(db)
  const video = await videoLesson(db)
  await signInAs(page, baseURL as string, db, user)
  await saveFromPlayer(page, video.id)
  expect(await savedKeys(page)).toEqual([`${COURSE}/${video.id}`])

  await endPremium(db, user.id)
  await navigate(page, '/courses')
  // The player has a level-one heading too: wait for the new page, or the poll below reads the old one mid-navigation.
  await expect(page).toHaveURL(/\/courses$/)
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible()
  await expect.poll(() => savedKeys(page)).toEqual([])

  // Offline afterwards, nothing of it is left to play.
  await context.setOffline(true)
  await navigate(page, '/saved')
  await expect(page.getByText('No saved lessons yet.')).toBeVisible()
})

test('a lesson whose video is embedded from YouTube says that only its text is saved', async ({
  page,
  db,
  baseURL,
}) => {
  const { user } = await premiumMember(db)
  const lesson = await db
    .selectFrom('lessons')
    .select(['id', 'video_key', 'video_url'])
    .where('course_id', '=', COURSE)
    .where('kind', '=', 'video')
    .where('is_preview', '=', false)
    .orderBy('position', 'desc')
    .executeTakeFirstOrThrow()
  // The course is shared with other specs: its lesson gets its own video back whatever happens here.
  const restore = () =>
    db
      .updateTable('lessons')
      .set({ video_key: lesson.video_key, video_url: lesson.video_url })
      .where('id', '=', lesson.id)
      .execute()
  await db
    .updateTable('lessons')
    .set({ video_key: null, video_url: 'https://www.youtube.com/watch?v=dQw4w9WgXcQ' })
    .where('id', '=', lesson.id)
    .execute()
  try {
    await signInAs(page, baseURL as string, db, user)
    await page.goto(`/learn/${COURSE}/${lesson.id}`)
    const note = 'The embedded video plays from its own site and needs a connection: the text is saved.'
    await expect(page.getByText(note, { exact: true })).toBeVisible()
    await page.getByRole('button', { name: 'Save for offline' }).click()
    await expect(page.getByText(/^Saved for offline \(.*the text is saved\.$/)).toBeVisible({ timeout: 30_000 })
  } finally {
    await restore()
  }
})

test('a buyer of a course whose lessons only Premium members keep is told so, not offered a button that fails', async ({
  page,
  db,
  baseURL,
}) => {
  const { user } = await buyerOfCourse(db, COURSE)
  const { offline_for_buyers } = await db
    .selectFrom('courses')
    .select('offline_for_buyers')
    .where('id', '=', COURSE)
    .executeTakeFirstOrThrow()
  expect(offline_for_buyers).toBe(false)
  const lesson = await db
    .selectFrom('lessons')
    .select('id')
    .where('course_id', '=', COURSE)
    .where('is_preview', '=', false)
    .orderBy('position')
    .executeTakeFirstOrThrow()
  await signInAs(page, baseURL as string, db, user)
  await page.goto(`/learn/${COURSE}/${lesson.id}`)
  const offline = page.getByRole('region', { name: 'Offline' })
  await expect(offline).toContainText('Saving lessons for offline is a Premium benefit for this course.')
  await expect(offline.getByRole('link', { name: 'See the plans' })).toHaveAttribute('href', '/pricing')
  await expect(page.getByRole('button', { name: 'Save for offline' })).toHaveCount(0)
  await expect(page.getByRole('button', { name: 'Save the whole course' })).toHaveCount(0)
})
