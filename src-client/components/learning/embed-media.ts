// A YouTube or Vimeo embed spoken to with the players' own postMessage protocols (no provider script is loaded, so
// the CSP stays as it is: frame-src for the two embed origins, nothing in script-src), shaped like the parts of an
// HTMLVideoElement the progress hook uses: currentTime (setting it seeks), duration, paused, readyState, and the
// events 'loadedmetadata', 'timeupdate', 'play', 'pause' and 'ended'.
//   YouTube (embed with enablejsapi=1): we post {"event":"listening"}; the player answers with "infoDelivery"
//     ({currentTime, duration, playerState}) and "onStateChange" (1 playing, 2 paused, 0 ended); we seek with
//     {"event":"command","func":"seekTo","args":[t,true]}.
//   Vimeo (embed with api=1): we post {"method":"addEventListener","value":…} once the player says "ready"; it sends
//     "timeupdate" ({seconds, duration}), "play", "pause", "ended"; we seek with {"method":"setCurrentTime"}.
// Messages are accepted only from the frame's own window and origin.

export type EmbedProvider = 'youtube' | 'vimeo'

/** The embed address with the flags that turn on each player's postMessage API. */
export function embedApiSrc(src: string, provider: EmbedProvider, pageOrigin: string): string {
  const url = new URL(src)
  if (provider === 'youtube') {
    url.searchParams.set('enablejsapi', '1')
    url.searchParams.set('origin', pageOrigin)
  } else {
    url.searchParams.set('api', '1')
  }
  return url.toString()
}

export interface EmbedChannel {
  /** Posts a message to the frame (JSON text, as both players expect). */
  post(message: string): void
  /** Calls `handler` for each message from the frame; returns how to stop. */
  listen(handler: (data: unknown) => void): () => void
}

const YOUTUBE_STATE = { ended: 0, playing: 1, paused: 2 } as const

export class EmbedMedia extends EventTarget {
  currentTimeSeen = 0
  duration = Number.NaN
  paused = true
  readyState = 0
  private stop: () => void
  private handshake: ReturnType<typeof setInterval> | undefined

  constructor(
    private readonly provider: EmbedProvider,
    private readonly channel: EmbedChannel,
  ) {
    super()
    this.stop = channel.listen((data) => this.receive(data))
    if (provider === 'youtube') {
      // The player may not be listening yet when the frame loads: repeat until it answers.
      const hello = () => channel.post(JSON.stringify({ event: 'listening', id: 1, channel: 'widget' }))
      hello()
      this.handshake = setInterval(hello, 250)
    } else {
      this.subscribeVimeo()
    }
  }

  get currentTime(): number {
    return this.currentTimeSeen
  }

  set currentTime(seconds: number) {
    this.currentTimeSeen = seconds
    if (this.provider === 'youtube') {
      this.channel.post(JSON.stringify({ event: 'command', func: 'seekTo', args: [seconds, true], id: 1 }))
    } else {
      this.channel.post(JSON.stringify({ method: 'setCurrentTime', value: seconds }))
    }
  }

  destroy() {
    this.stop()
    clearInterval(this.handshake)
  }

  private subscribeVimeo() {
    for (const event of ['timeupdate', 'play', 'pause', 'ended']) {
      this.channel.post(JSON.stringify({ method: 'addEventListener', value: event }))
    }
    this.channel.post(JSON.stringify({ method: 'getDuration' }))
  }

  private receive(raw: unknown) {
    let data: unknown = raw
    if (typeof raw === 'string') {
      try {
        data = JSON.parse(raw)
      } catch {
        return
      }
    }
    if (!data || typeof data !== 'object') return
    if (this.provider === 'youtube') this.receiveYouTube(data as YouTubeMessage)
    else this.receiveVimeo(data as VimeoMessage)
  }

  private receiveYouTube(message: YouTubeMessage) {
    if (message.event === 'onReady' || message.event === 'initialDelivery' || message.event === 'infoDelivery') {
      clearInterval(this.handshake)
      this.handshake = undefined
    }
    const info = message.event === 'infoDelivery' || message.event === 'initialDelivery' ? message.info : undefined
    if (info && typeof info === 'object') {
      if (typeof info.duration === 'number' && info.duration > 0) this.learnDuration(info.duration)
      if (typeof info.currentTime === 'number') this.moveTo(info.currentTime)
      if (typeof info.playerState === 'number') this.youTubeState(info.playerState)
    }
    if (message.event === 'onStateChange' && typeof message.info === 'number') this.youTubeState(message.info)
  }

  private youTubeState(state: number) {
    if (state === YOUTUBE_STATE.playing) this.setPaused(false)
    else if (state === YOUTUBE_STATE.paused) this.setPaused(true)
    else if (state === YOUTUBE_STATE.ended && !this.paused) {
      this.paused = true
      this.dispatchEvent(new Event('ended'))
    }
  }

  private receiveVimeo(message: VimeoMessage) {
    if (message.event === 'ready') this.subscribeVimeo()
    if (message.method === 'getDuration' && typeof message.value === 'number') this.learnDuration(message.value)
    const data = message.data && typeof message.data === 'object' ? message.data : undefined
    if (data && typeof data.duration === 'number' && data.duration > 0) this.learnDuration(data.duration)
    if (message.event === 'timeupdate' && data && typeof data.seconds === 'number') {
      this.setPaused(false)
      this.moveTo(data.seconds)
    }
    if (message.event === 'play') this.setPaused(false)
    if (message.event === 'pause') {
      if (data && typeof data.seconds === 'number') this.moveTo(data.seconds)
      this.setPaused(true)
    }
    if (message.event === 'ended') {
      this.paused = true
      this.dispatchEvent(new Event('ended'))
    }
  }

  private learnDuration(seconds: number) {
    const first = this.readyState === 0
    this.duration = seconds
    this.readyState = 1
    if (first) this.dispatchEvent(new Event('loadedmetadata'))
  }

  private moveTo(seconds: number) {
    if (!Number.isFinite(seconds) || seconds < 0) return
    this.currentTimeSeen = seconds
    this.dispatchEvent(new Event('timeupdate'))
  }

  private setPaused(paused: boolean) {
    if (this.paused === paused) return
    this.paused = paused
    this.dispatchEvent(new Event(paused ? 'pause' : 'play'))
  }
}

interface YouTubeMessage {
  event?: string
  info?: { currentTime?: unknown; duration?: unknown; playerState?: unknown } | number | null
}
interface VimeoMessage {
  event?: string
  method?: string
  value?: unknown
  data?: { seconds?: unknown; duration?: unknown } | null
}

/** The channel to a real iframe: posts to its window at its origin, hears only its window from its origin. */
export function frameChannel(frame: HTMLIFrameElement): EmbedChannel {
  const origin = new URL(frame.src).origin
  return {
    post: (message) => frame.contentWindow?.postMessage(message, origin),
    listen: (handler) => {
      const onMessage = (event: MessageEvent) => {
        if (event.origin === origin && event.source === frame.contentWindow) handler(event.data)
      }
      window.addEventListener('message', onMessage)
      return () => window.removeEventListener('message', onMessage)
    },
  }
}
