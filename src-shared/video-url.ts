// YouTube and Vimeo addresses a lesson may use, and the privacy-friendly embed each becomes (youtube-nocookie.com;
// Vimeo with dnt=1). The admin form checks with the same function the server stores and embeds with.

const YOUTUBE_ID = /^[\w-]{11}$/
const VIMEO_ID = /^\d{6,12}$/

export type VideoEmbed = { provider: 'youtube' | 'vimeo'; id: string; embedUrl: string }

export const VIDEO_URL_MESSAGE = 'Video address must be a YouTube or Vimeo link'

export function parseVideoUrl(address: string): VideoEmbed | null {
  let url: URL
  try {
    url = new URL(address.trim())
  } catch {
    return null
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return null
  const host = url.hostname.replace(/^www\./, '').replace(/^m\./, '')
  const parts = url.pathname.split('/').filter(Boolean)
  let id: string | undefined
  if (host === 'youtu.be') id = parts[0]
  else if (host === 'youtube.com' || host === 'youtube-nocookie.com') {
    id =
      parts[0] === 'watch'
        ? (url.searchParams.get('v') ?? undefined)
        : ['embed', 'shorts', 'live'].includes(parts[0] ?? '')
          ? parts[1]
          : undefined
  }
  if (id && YOUTUBE_ID.test(id))
    return { provider: 'youtube', id, embedUrl: `https://www.youtube-nocookie.com/embed/${id}` }
  if (host === 'vimeo.com' || host === 'player.vimeo.com') {
    const vimeoId = parts[0] === 'video' ? parts[1] : parts[0]
    if (vimeoId && VIMEO_ID.test(vimeoId)) {
      return { provider: 'vimeo', id: vimeoId, embedUrl: `https://player.vimeo.com/video/${vimeoId}?dnt=1` }
    }
  }
  return null
}

/** The frame origins the Content-Security-Policy allows for these embeds. */
export const VIDEO_EMBED_ORIGINS = ['https://www.youtube-nocookie.com', 'https://player.vimeo.com']
