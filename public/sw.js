// The service worker (issue 34), installed only for people who save lessons for offline (public/offline/store.js):
// - pages: from the network; offline, a page saved with the shell (the saved-lessons page) or the offline page;
//   online, a page's start also asks the server again for the saved lessons' passes (decision 0058);
// - saved lessons' videos and images: from the saved copy (with byte ranges, so the player can seek), only while a
//   saved lesson holding it has a pass that has not run out; online, the server is asked first, and a refusal (the
//   Premium or purchase behind the copy ended) removes the lesson and answers as the server does;
// - everything else: not touched, straight to the network.
importScripts('/offline/records.js')
const offline = self.skillforgeOffline
const SHELL_CACHE = 'skillforge-shell-v1'
const SHELL = [
  '/saved',
  '/offline.html',
  '/offline/records.js',
  '/offline/store.js',
  '/offline/saved.js',
  '/manifest.webmanifest',
  '/favicon.svg',
  '/icons/icon-192.png',
]

self.addEventListener('install', (event) => {
  event.waitUntil(
    caches
      .open(SHELL_CACHE)
      .then((cache) => cache.addAll(SHELL))
      .then(() => self.skipWaiting()),
  )
})

self.addEventListener('activate', (event) => {
  event.waitUntil(
    caches
      .keys()
      .then((keys) =>
        Promise.all(
          keys.filter((key) => key.startsWith('skillforge-shell-') && key !== SHELL_CACHE).map((key) => caches.delete(key)),
        ),
      )
      .then(() => self.clients.claim()),
  )
})

/** A part of a saved file, as the server would send it for a Range request (RFC 9110 §14). */
async function partOf(request, saved) {
  const range = request.headers.get('range')
  if (!range) return saved
  const blob = await saved.blob()
  const match = /^bytes=(\d*)-(\d*)$/.exec(range.trim())
  let start = 0
  let end = blob.size - 1
  if (match && match[1] !== '') {
    start = Number(match[1])
    if (match[2] !== '') end = Math.min(Number(match[2]), blob.size - 1)
  } else if (match && match[2] !== '') {
    start = Math.max(0, blob.size - Number(match[2]))
  }
  if (!match || start > end) {
    return new Response(null, { status: 416, headers: { 'Content-Range': `bytes */${blob.size}` } })
  }
  return new Response(blob.slice(start, end + 1), {
    status: 206,
    headers: {
      'Content-Type': saved.headers.get('content-type') ?? 'application/octet-stream',
      'Content-Range': `bytes ${start}-${end}/${blob.size}`,
      'Content-Length': String(end - start + 1),
      'Accept-Ranges': 'bytes',
    },
  })
}

let refreshing = null
/** A page started from the network: the saved lessons' passes are asked again (at most one ask at a time). */
function refreshPasses() {
  refreshing ??= offline
    .refreshPasses()
    .catch(() => undefined)
    .finally(() => {
      refreshing = null
    })
  return refreshing
}

async function fromNetworkOrShell(event) {
  const { request } = event
  const url = new URL(request.url)
  try {
    const response = await fetch(request)
    // The shell's own files stay fresh in the cache while online.
    if (response.ok && SHELL.includes(url.pathname)) {
      const copy = response.clone()
      caches.open(SHELL_CACHE).then((cache) => cache.put(url.pathname, copy))
    }
    // Any page of the site started online, not only /saved (which asks itself and says what it removed).
    if (request.mode === 'navigate' && response.ok && url.pathname !== '/saved') event.waitUntil(refreshPasses())
    return response
  } catch (error) {
    const cache = await caches.open(SHELL_CACHE)
    const saved = await cache.match(url.pathname)
    if (saved) return saved
    if (request.mode === 'navigate') return (await cache.match('/offline.html')) ?? Response.error()
    throw error
  }
}

/** How long the server may take to confirm a saved lesson before its copy plays anyway (a connection barely there). */
const CHECK_TIMEOUT_MS = 4000
const checks = new Map()

/**
 * Whether the server refuses this file to this browser's session now: 'refused' (401, 403), or 'unknown' (allowed,
 * offline, slow or failing: the copy plays within its pass). One byte is asked for, so the check reads no video.
 */
function serverRefuses(path) {
  let check = checks.get(path)
  if (!check) {
    check = fetch(path, {
      headers: { range: 'bytes=0-0' },
      credentials: 'same-origin',
      cache: 'no-store',
      signal: AbortSignal.timeout(CHECK_TIMEOUT_MS),
    })
      .then((response) => {
        response.body?.cancel().catch(() => undefined)
        return response.status === 401 || response.status === 403 ? 'refused' : 'unknown'
      })
      .catch(() => 'unknown')
      .finally(() => checks.delete(path))
    checks.set(path, check)
  }
  return check
}

async function fromSavedCopy(event, url) {
  const { request } = event
  const path = url.pathname + url.search
  const saved = await (await caches.open(offline.MEDIA_CACHE)).match(path)
  if (!saved) return fetch(request)
  const holders = (await offline.lessonsHolding(path).catch(() => [])).filter((lesson) => offline.playable(lesson))
  // No saved lesson whose pass still runs holds this copy: the network answers (offline, nothing plays).
  if (holders.length === 0) return fetch(request)
  if (url.pathname.startsWith('/api/learn/') && (await serverRefuses(path)) === 'refused') {
    await Promise.all(holders.map((lesson) => offline.removeLesson(lesson.key)))
    // The same may hold for the course's other saved lessons (or all of them, signed out).
    event.waitUntil(refreshPasses())
    return fetch(request)
  }
  return partOf(request, saved)
}

self.addEventListener('fetch', (event) => {
  const { request } = event
  if (request.method !== 'GET') return
  const url = new URL(request.url)
  if (url.origin !== self.location.origin) return
  if (request.mode === 'navigate' || SHELL.includes(url.pathname)) {
    event.respondWith(fromNetworkOrShell(event))
    return
  }
  if (url.pathname.startsWith('/api/learn/media/') || request.destination === 'image') {
    event.respondWith(fromSavedCopy(event, url))
  }
})
