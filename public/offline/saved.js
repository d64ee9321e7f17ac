// The saved-lessons page (/saved): the lessons this browser keeps, their sizes, Play and Remove; the player records
// the stretches watched (as the app's player does, src-client/components/learning/video-progress.ts) into the
// offline queue, sent to the server when the browser is online.
import {
  formatBytes,
  installOfflineWorker,
  listLessons,
  pendingProgress,
  playable,
  queueProgress,
  refreshPasses,
  removeLesson,
  syncProgress,
} from './store.js'

const SAVE_EVERY_MS = 15_000
const SEEK_GAP_SECONDS = 1.5
const $ = (id) => document.getElementById(id)

async function showConnection(note = '') {
  const pending = await pendingProgress()
  const state = navigator.onLine ? 'Online.' : 'Offline: saved lessons still play.'
  const waiting = pending > 0 ? ` ${pending} progress update${pending === 1 ? '' : 's'} waiting to be sent.` : ''
  $('connection').textContent = `${state}${waiting}${note ? ` ${note}` : ''}`
}

async function showUsage() {
  if (!navigator.storage?.estimate) return
  const { usage = 0, quota = 0 } = await navigator.storage.estimate()
  $('usage').textContent = quota > 0 ? `Using ${formatBytes(usage)} of ${formatBytes(quota)} this browser allows.` : ''
}

function button(label, onClick, secondary = false) {
  const element = document.createElement('button')
  element.type = 'button'
  element.textContent = label
  if (secondary) element.className = 'secondary'
  element.addEventListener('click', onClick)
  return element
}

async function render() {
  const lessons = await listLessons()
  const list = $('list')
  list.replaceChildren()
  if (lessons.length === 0) {
    const empty = document.createElement('p')
    empty.innerHTML =
      'No saved lessons yet. Open a lesson you take and choose <strong>Save for offline</strong>. <a href="/account#my-courses">My courses</a>'
    list.append(empty)
  }
  const courses = Map.groupBy(lessons, (lesson) => lesson.courseTitle)
  for (const [courseTitle, courseLessons] of courses) {
    const heading = document.createElement('h3')
    heading.textContent = courseTitle
    heading.style.fontSize = '1rem'
    heading.style.margin = '0.75rem 0 0.25rem'
    const items = document.createElement('ul')
    for (const lesson of courseLessons) {
      const item = document.createElement('li')
      item.dataset.testid = 'saved-lesson'
      const text = document.createElement('span')
      const expired = !playable(lesson)
      text.textContent = `${lesson.title} · ${formatBytes(lesson.bytes)}${expired ? ' · expired: go online to renew' : ''}`
      const actions = document.createElement('span')
      actions.style.display = 'flex'
      actions.style.gap = '0.5rem'
      const play = button('Play', () => openLesson(lesson))
      play.setAttribute('aria-label', `Play ${lesson.title}`)
      play.disabled = expired
      const remove = button(
        'Remove',
        async () => {
          await removeLesson(lesson.key)
          if ($('player').dataset.key === lesson.key) closePlayer()
          await render()
          await showConnection(`Removed “${lesson.title}”.`)
        },
        true,
      )
      remove.setAttribute('aria-label', `Remove ${lesson.title}`)
      actions.append(play, remove)
      item.append(text, actions)
      items.append(item)
    }
    list.append(heading, items)
  }
  await showUsage()
}

let stopTracking = () => {}

function closePlayer() {
  stopTracking()
  $('player').hidden = true
  $('player').dataset.key = ''
  $('player-body').replaceChildren()
}

function openLesson(lesson) {
  // A lesson whose pass ran out refuses to play (the Premium or purchase behind it may have ended).
  if (!playable(lesson)) return
  stopTracking()
  const section = $('player')
  section.hidden = false
  section.dataset.key = lesson.key
  $('player-title').textContent = lesson.title
  const body = $('player-body')
  body.replaceChildren()
  if (lesson.videoSrc) {
    const video = document.createElement('video')
    video.controls = true
    video.preload = 'auto'
    video.src = lesson.videoSrc
    video.dataset.testid = 'saved-video'
    body.append(video)
    stopTracking = track(video, lesson)
  }
  const article = document.createElement('div')
  article.className = 'article'
  // Rendered from Markdown and sanitised by the server when the lesson was saved.
  article.innerHTML = lesson.html
  body.append(article)
  // The player opens above the list: the focus goes to its heading (tabindex -1 in saved.html), not left on Play.
  $('player-title').focus()
  section.scrollIntoView({ block: 'start' })
}

function track(video, lesson) {
  let pending = []
  let segment = null
  const take = () => {
    const ranges = [...pending]
    if (segment && segment[1] > segment[0]) ranges.push([...segment])
    pending = []
    segment = segment ? [segment[1], segment[1]] : null
    return ranges
  }
  const flush = async () => {
    const ranges = take()
    if (ranges.length === 0) return
    await queueProgress({
      courseId: lesson.courseId,
      lessonId: lesson.lessonId,
      positionSeconds: video.currentTime,
      ranges,
      sentAt: Date.now(),
    })
    if (navigator.onLine) await syncProgress()
    await showConnection()
  }
  const onTime = () => {
    const now = video.currentTime
    if (segment && now >= segment[1] && now - segment[1] <= SEEK_GAP_SECONDS) segment[1] = now
    else {
      if (segment && segment[1] > segment[0]) pending.push(segment)
      segment = [now, now]
    }
  }
  const onLoaded = () => {
    if (lesson.resumeAt > 0 && lesson.resumeAt < video.duration - 1) video.currentTime = lesson.resumeAt
  }
  const timer = setInterval(() => {
    if (!video.paused) void flush()
  }, SAVE_EVERY_MS)
  video.addEventListener('timeupdate', onTime)
  video.addEventListener('loadedmetadata', onLoaded)
  video.addEventListener('pause', flush)
  video.addEventListener('ended', flush)
  return () => {
    clearInterval(timer)
    video.pause()
    void flush()
    video.removeEventListener('timeupdate', onTime)
  }
}

async function whenOnline() {
  const { removed } = await refreshPasses().catch(() => ({ removed: 0 }))
  const sent = await syncProgress().catch(() => 0)
  await render()
  const notes = []
  if (sent > 0) notes.push(`Sent ${sent} progress update${sent === 1 ? '' : 's'}.`)
  if (removed > 0) notes.push(`Removed ${removed} lesson${removed === 1 ? '' : 's'} of courses you no longer hold.`)
  await showConnection(notes.join(' '))
}

window.addEventListener('online', () => void whenOnline())
window.addEventListener('offline', () => void showConnection())
window.addEventListener('pagehide', () => stopTracking())
installOfflineWorker().catch(() => {})
if (navigator.onLine) await whenOnline()
else {
  await render()
  await showConnection()
}
