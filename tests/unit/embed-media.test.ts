// The YouTube/Vimeo postMessage adapter (src-client/components/learning/embed-media.ts) against scripted players:
// it says hello the way each player expects, turns their messages into the video events the progress hook uses,
// seeks with their commands, and ignores what is not theirs.
import { afterEach, describe, expect, it, vi } from 'vitest'
import { EmbedMedia, embedApiSrc } from '../../src-client/components/learning/embed-media.ts'

function fakeFrame() {
  const sent: unknown[] = []
  let handler: ((data: unknown) => void) | null = null
  return {
    sent,
    channel: {
      post: (message: string) => sent.push(JSON.parse(message)),
      listen: (h: (data: unknown) => void) => {
        handler = h
        return () => {
          handler = null
        }
      },
    },
    say: (message: unknown) => handler?.(typeof message === 'string' ? message : JSON.stringify(message)),
    get listening() {
      return handler !== null
    },
  }
}

function recorder(media: EmbedMedia) {
  const events: string[] = []
  for (const type of ['loadedmetadata', 'timeupdate', 'play', 'pause', 'ended']) {
    media.addEventListener(type, () => events.push(`${type}@${media.currentTime}`))
  }
  return events
}

afterEach(() => vi.useRealTimers())

describe('embedApiSrc', () => {
  it('turns on each player’s API and keeps the privacy settings', () => {
    expect(embedApiSrc('https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ', 'youtube', 'https://shop.test')).toBe(
      'https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ?enablejsapi=1&origin=https%3A%2F%2Fshop.test',
    )
    expect(embedApiSrc('https://player.vimeo.com/video/76979871?dnt=1', 'vimeo', 'https://shop.test')).toBe(
      'https://player.vimeo.com/video/76979871?dnt=1&api=1',
    )
  })
})

describe('EmbedMedia with YouTube', () => {
  it('says "listening" until the player answers, then reports time, duration, play, pause and end', () => {
    vi.useFakeTimers()
    const frame = fakeFrame()
    const media = new EmbedMedia('youtube', frame.channel)
    const events = recorder(media)
    vi.advanceTimersByTime(600)
    const hellos = frame.sent.filter((m) => (m as { event?: string }).event === 'listening')
    expect(hellos.length).toBe(3)
    frame.say({ event: 'initialDelivery', info: { duration: 60, currentTime: 0, playerState: -1 } })
    vi.advanceTimersByTime(1000)
    expect(frame.sent.filter((m) => (m as { event?: string }).event === 'listening')).toHaveLength(3)
    expect(media).toMatchObject({ duration: 60, readyState: 1, paused: true })

    frame.say({ event: 'onStateChange', info: 1 })
    frame.say({ event: 'infoDelivery', info: { currentTime: 1.2 } })
    frame.say({ event: 'infoDelivery', info: { currentTime: 2.4 } })
    frame.say({ event: 'onStateChange', info: 2 })
    frame.say({ event: 'infoDelivery', info: { currentTime: 59.9, playerState: 1 } })
    frame.say({ event: 'onStateChange', info: 0 })
    expect(events).toEqual([
      'loadedmetadata@0',
      'timeupdate@0',
      'play@0',
      'timeupdate@1.2',
      'timeupdate@2.4',
      'pause@2.4',
      'timeupdate@59.9',
      'play@59.9',
      'ended@59.9',
    ])

    media.currentTime = 30
    expect(frame.sent.at(-1)).toEqual({ event: 'command', func: 'seekTo', args: [30, true], id: 1 })
    media.destroy()
    expect(frame.listening).toBe(false)
  })

  it('ignores messages that are not the player’s (text, other shapes, bad numbers)', () => {
    const frame = fakeFrame()
    const media = new EmbedMedia('youtube', frame.channel)
    const events = recorder(media)
    frame.say('not json')
    frame.say({ event: 'infoDelivery', info: { currentTime: 'soon', duration: -1 } })
    frame.say({ event: 'infoDelivery', info: { currentTime: -5 } })
    frame.say({ hello: 'world' })
    expect(events).toEqual([])
    expect(media.readyState).toBe(0)
    media.destroy()
  })
})

describe('EmbedMedia with Vimeo', () => {
  it('subscribes to the player’s events (again when it says ready) and follows them', () => {
    const frame = fakeFrame()
    const media = new EmbedMedia('vimeo', frame.channel)
    const events = recorder(media)
    const subscriptions = () =>
      frame.sent
        .filter((m) => (m as { method?: string }).method === 'addEventListener')
        .map((m) => (m as { value: string }).value)
    expect(subscriptions()).toEqual(['timeupdate', 'play', 'pause', 'ended'])
    frame.say({ event: 'ready', player_id: 'x' })
    expect(subscriptions()).toHaveLength(8)
    frame.say({ method: 'getDuration', value: 75 })
    frame.say({ event: 'play', data: { seconds: 0, duration: 75 } })
    frame.say({ event: 'timeupdate', data: { seconds: 0.25, percent: 0.003, duration: 75 } })
    frame.say({ event: 'pause', data: { seconds: 0.5 } })
    frame.say({ event: 'ended', data: { seconds: 75 } })
    expect(media.duration).toBe(75)
    expect(events).toEqual([
      'loadedmetadata@0',
      'play@0',
      'timeupdate@0.25',
      'timeupdate@0.5',
      'pause@0.5',
      'ended@0.5',
    ])
    media.currentTime = 12
    expect(frame.sent.at(-1)).toEqual({ method: 'setCurrentTime', value: 12 })
    media.destroy()
  })
})
