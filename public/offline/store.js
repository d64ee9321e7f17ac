// Saved lessons in this browser (issue 34): each lesson's text in IndexedDB, its video and images in the Cache
// Storage the service worker (/sw.js) answers from, and the progress made offline queued until the browser is back
// online. Used by the player's "Save for offline" button and by the saved-lessons page (/saved); plain JavaScript so
// the page works from the cache without the app's bundle. The server decides who may save what and until when
// (learning.offlinePasses); a lesson past its date refuses to play, and at each start online the passes are asked
// again and the lessons of courses no longer held are removed.

export const MEDIA_CACHE = 'skillforge-saved-media-v1'
const DB_NAME = 'skillforge-offline'
/** Saving refuses when it would take the site past this share of its quota (the browser would fail half-way). */
const QUOTA_SHARE = 0.9

function request(req) {
  return new Promise((resolve, reject) => {
    req.onsuccess = () => resolve(req.result)
    req.onerror = () => reject(req.error)
  })
}

let opened
function database() {
  opened ??= new Promise((resolve, reject) => {
    const req = indexedDB.open(DB_NAME, 1)
    req.onupgradeneeded = () => {
      req.result.createObjectStore('lessons', { keyPath: 'key' })
      req.result.createObjectStore('progress', { keyPath: 'id', autoIncrement: true })
    }
    req.onsuccess = () => resolve(req.result)
    req.onerror = () => reject(req.error)
  })
  return opened
}

async function store(name, mode) {
  return (await database()).transaction(name, mode).objectStore(name)
}

export const lessonKey = (courseId, lessonId) => `${courseId}/${lessonId}`

export async function listLessons() {
  const lessons = await request((await store('lessons', 'readonly')).getAll())
  return lessons.sort((a, b) => a.courseTitle.localeCompare(b.courseTitle) || a.position - b.position)
}

export async function getLesson(key) {
  return request((await store('lessons', 'readonly')).get(key))
}

/** Whether a saved lesson may still play: its pass has not run out. */
export function playable(lesson, now = Date.now()) {
  return Date.parse(lesson.validUntil) > now
}

export async function removeLesson(key) {
  const lesson = await getLesson(key)
  if (!lesson) return
  const cache = await caches.open(MEDIA_CACHE)
  await Promise.all(lesson.mediaUrls.map((url) => cache.delete(url)))
  await request((await store('lessons', 'readwrite')).delete(key))
}

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
    (await store('lessons', 'readwrite')).put({
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
  await request((await store('progress', 'readwrite')).add(write))
}

export async function pendingProgress() {
  return request((await store('progress', 'readonly')).count())
}

async function trpcGet(path, input) {
  const response = await fetch(`/trpc/${path}?input=${encodeURIComponent(JSON.stringify(input))}`, {
    credentials: 'same-origin',
  })
  if (!response.ok) return { status: response.status, data: null }
  return { status: response.status, data: (await response.json()).result.data }
}

/**
 * Sends the queued progress in order; each write leaves the queue once the server answered it (a refused one too:
 * sending it again would not change the answer). Stops at the first network failure. Returns how many were sent.
 */
export async function syncProgress() {
  const writes = await request((await store('progress', 'readonly')).getAll())
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
    await request((await store('progress', 'readwrite')).delete(id))
    sent += 1
  }
  return sent
}

/** At a start online: asks the server again and removes the lessons of courses no longer held; renews the others. */
export async function refreshPasses() {
  const lessons = await listLessons()
  const courseIds = [...new Set(lessons.map((lesson) => lesson.courseId))]
  if (courseIds.length === 0) return { removed: 0 }
  const { status, data } = await trpcGet('learning.offlinePasses', { courseIds })
  if (status === 401) {
    // Signed out: saved lessons belong to the person who saved them.
    for (const lesson of lessons) await removeLesson(lesson.key)
    return { removed: lessons.length }
  }
  if (!data) return { removed: 0 }
  const passes = new Map(data.map((pass) => [pass.courseId, pass]))
  let removed = 0
  for (const lesson of lessons) {
    const pass = passes.get(lesson.courseId)
    if (!pass?.allowed) {
      await removeLesson(lesson.key)
      removed += 1
    } else if (pass.validUntil !== lesson.validUntil) {
      await request((await store('lessons', 'readwrite')).put({ ...lesson, validUntil: pass.validUntil }))
    }
  }
  return { removed }
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
