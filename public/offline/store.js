// Saved lessons in this browser (issue 34): each lesson's text in IndexedDB, its video and images in the Cache
// Storage the service worker (/sw.js) answers from, and the progress made offline queued until the browser is back
// online. Used by the player's "Save for offline" button and by the saved-lessons page (/saved); plain JavaScript so
// the page works from the cache without the app's bundle. The server decides who may save what and until when
// (learning.offlinePasses); a lesson past its date refuses to play, and at each start online the passes are asked
// again and the lessons of courses no longer held are removed.

import './records.js'

// The records' functions (records.js, shared with the service worker).
const { MEDIA_CACHE, request, objectStore, listLessons, getLesson, playable, removeLesson, trpcGet, refreshPasses } =
  self.skillforgeOffline
export { getLesson, listLessons, MEDIA_CACHE, playable, refreshPasses, removeLesson }

/** Saving refuses when it would take the site past this share of its quota (the browser would fail half-way). */
const QUOTA_SHARE = 0.9

export const lessonKey = (courseId, lessonId) => `${courseId}/${lessonId}`

/** Same-origin images of the lesson's article, saved with it so the text reads offline as it does online. */
function imagesOf(html) {
  const doc = new DOMParser().parseFromString(html, 'text/html')
  return [...doc.images]
    .map((img) => new URL(img.getAttribute('src') ?? '', location.href))
    .filter((url) => url.origin === location.origin)
    .map((url) => url.pathname + url.search)
}

function formatBytes(bytes) {
  return bytes >= 1024 ** 3
    ? `${(bytes / 1024 ** 3).toFixed(1)} GB`
    : bytes >= 1024 ** 2
      ? `${(bytes / 1024 ** 2).toFixed(1)} MB`
      : `${Math.max(1, Math.round(bytes / 1024))} kB`
}
export { formatBytes }

export class OfflineError extends Error {}

async function sizeOf(url) {
  const head = await fetch(url, { method: 'HEAD', credentials: 'same-origin' })
  if (!head.ok) throw new OfflineError('This lesson could not be saved: the server refused its files.')
  return Number(head.headers.get('content-length') ?? 0)
}

/**
 * Saves one lesson (the player's data, the course's pass from the server): checks the space first and warns instead
 * of failing half-way; a lesson saved again replaces its copy.
 */
export async function saveLesson({ courseId, courseTitle, lesson, position, pass }) {
  if (!pass.allowed) throw new OfflineError(pass.reason ?? 'This lesson cannot be saved for offline.')
  const mediaUrls = [...(lesson.videoSrc ? [lesson.videoSrc] : []), ...imagesOf(lesson.html)]
  const sizes = await Promise.all(mediaUrls.map(sizeOf))
  const needed = sizes.reduce((sum, size) => sum + size, 0) + lesson.html.length * 2
  if (navigator.storage?.estimate) {
    const { quota = 0, usage = 0 } = await navigator.storage.estimate()
    const free = quota * QUOTA_SHARE - usage
    if (quota > 0 && needed > free) {
      throw new OfflineError(
        `Not enough space to save this lesson: it needs ${formatBytes(needed)} and this browser has ${formatBytes(Math.max(0, free))} left. Remove saved lessons to make room.`,
      )
    }
  }
  await navigator.storage?.persist?.().catch(() => false)
  const cache = await caches.open(MEDIA_CACHE)
  for (const url of mediaUrls) {
    const response = await fetch(url, { credentials: 'same-origin' })
    if (!response.ok) throw new OfflineError('This lesson could not be saved: a file did not download.')
    await cache.put(url, response)
  }
  await request(
    (await objectStore('lessons', 'readwrite')).put({
      key: lessonKey(courseId, lesson.id),
      courseId,
      courseTitle,
      lessonId: lesson.id,
      title: lesson.title,
      position,
      html: lesson.html,
      videoSrc: lesson.videoSrc,
      resumeAt: lesson.resumeAt ?? 0,
      mediaUrls,
      bytes: needed,
      savedAt: new Date().toISOString(),
      validUntil: pass.validUntil,
    }),
  )
  return needed
}

/** A progress write made offline, kept until the server has it (the same input as learning.saveProgress). */
export async function queueProgress(write) {
  await request((await objectStore('progress', 'readwrite')).add(write))
}

export async function pendingProgress() {
  return request((await objectStore('progress', 'readonly')).count())
}

/**
 * Sends the queued progress in order; each write leaves the queue once the server answered it (a refused one too:
 * sending it again would not change the answer). Stops at the first network failure. Returns how many were sent.
 */
export async function syncProgress() {
  const writes = await request((await objectStore('progress', 'readonly')).getAll())
  let sent = 0
  for (const write of writes) {
    const { id, ...input } = write
    let response
    try {
      response = await fetch('/trpc/learning.saveProgress', {
        method: 'POST',
        credentials: 'same-origin',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(input),
      })
    } catch {
      break
    }
    // Signed out, or the server failing: keep the write for the next try.
    if (response.status === 401 || response.status >= 500) break
    await request((await objectStore('progress', 'readwrite')).delete(id))
    sent += 1
  }
  return sent
}

export async function passFor(courseId) {
  const { status, data } = await trpcGet('learning.offlinePasses', { courseIds: [courseId] })
  if (status === 401) throw new OfflineError('Log in again to save lessons for offline.')
  if (!data) throw new OfflineError('Could not reach the server to save this lesson. Try again.')
  return data[0]
}

/** Installs the service worker that plays saved lessons offline (only for people who save lessons). */
export async function installOfflineWorker() {
  if (!('serviceWorker' in navigator)) throw new OfflineError('This browser cannot keep lessons offline.')
  await navigator.serviceWorker.register('/sw.js')
  await navigator.serviceWorker.ready
}
