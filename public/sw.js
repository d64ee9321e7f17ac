// The service worker (issue 34), installed only for people who save lessons for offline (public/offline/store.js):
// - pages: from the network; offline, a page saved with the shell (the saved-lessons page) or the offline page;
// - saved lessons' videos and images: from the saved copy (with byte ranges, so the player can seek);
// - everything else: not touched, straight to the network.
const SHELL_CACHE = 'skillforge-shell-v1'
const MEDIA_CACHE = 'skillforge-saved-media-v1'
const SHELL = [
  '/saved',
  '/offline.html',
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

async function fromNetworkOrShell(request) {
  const url = new URL(request.url)
  try {
    const response = await fetch(request)
    // The shell's own files stay fresh in the cache while online.
    if (response.ok && SHELL.includes(url.pathname)) {
      const copy = response.clone()
      caches.open(SHELL_CACHE).then((cache) => cache.put(url.pathname, copy))
    }
    return response
  } catch (error) {
    const cache = await caches.open(SHELL_CACHE)
    const saved = await cache.match(url.pathname)
    if (saved) return saved
    if (request.mode === 'navigate') return (await cache.match('/offline.html')) ?? Response.error()
    throw error
  }
}

self.addEventListener('fetch', (event) => {
  const { request } = event
  if (request.method !== 'GET') return
  const url = new URL(request.url)
  if (url.origin !== self.location.origin) return
  if (request.mode === 'navigate' || SHELL.includes(url.pathname)) {
    event.respondWith(fromNetworkOrShell(request))
    return
  }
  if (url.pathname.startsWith('/api/learn/media/') || request.destination === 'image') {
    event.respondWith(
      caches
        .open(MEDIA_CACHE)
        .then((cache) => cache.match(url.pathname + url.search))
        .then((saved) => (saved ? partOf(request, saved) : fetch(request))),
    )
  }
})
