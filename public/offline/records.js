// The saved lessons' records (issue 34, decision 0058): each lesson's text and pass in IndexedDB, its files in the
// Cache Storage, and the passes asked of the server again. Shared by the pages (through store.js) and the service
// worker (sw.js), which checks a saved lesson's pass before it serves a saved file. A classic script, not a module,
// because a module service worker needs Firefox 147: the worker loads it with importScripts, store.js imports it for
// its side effect, and both read its functions from `self.skillforgeOffline`.
;(() => {
  const MEDIA_CACHE = 'skillforge-saved-media-v1'
  const DB_NAME = 'skillforge-offline'

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

  async function objectStore(name, mode) {
    return (await database()).transaction(name, mode).objectStore(name)
  }

  async function listLessons() {
    const lessons = await request((await objectStore('lessons', 'readonly')).getAll())
    return lessons.sort((a, b) => a.courseTitle.localeCompare(b.courseTitle) || a.position - b.position)
  }

  async function getLesson(key) {
    return request((await objectStore('lessons', 'readonly')).get(key))
  }

  /** The saved lessons that hold a file (a video is one lesson's; an image may be in several). */
  async function lessonsHolding(url) {
    return (await listLessons()).filter((lesson) => lesson.mediaUrls.includes(url))
  }

  /** Whether a saved lesson may still play: its pass has not run out. */
  function playable(lesson, now = Date.now()) {
    return Date.parse(lesson.validUntil) > now
  }

  async function removeLesson(key) {
    const lesson = await getLesson(key)
    if (!lesson) return
    const cache = await caches.open(MEDIA_CACHE)
    await Promise.all(lesson.mediaUrls.map((url) => cache.delete(url)))
    await request((await objectStore('lessons', 'readwrite')).delete(key))
  }

  async function trpcGet(path, input) {
    const response = await fetch(`/trpc/${path}?input=${encodeURIComponent(JSON.stringify(input))}`, {
      credentials: 'same-origin',
    })
    if (!response.ok) return { status: response.status, data: null }
    return { status: response.status, data: (await response.json()).result.data }
  }

  /**
   * At a start online (the saved-lessons page, or any page the service worker opens from the network): asks the
   * server again and removes the lessons of courses no longer held; renews the others.
   */
  async function refreshPasses() {
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
        await request((await objectStore('lessons', 'readwrite')).put({ ...lesson, validUntil: pass.validUntil }))
      }
    }
    return { removed }
  }

  self.skillforgeOffline = {
    MEDIA_CACHE,
    request,
    objectStore,
    listLessons,
    getLesson,
    lessonsHolding,
    playable,
    removeLesson,
    trpcGet,
    refreshPasses,
  }
})()
