import { type KeyboardEvent, useEffect, useRef, useState } from 'react'
import type { RouterOutputs } from '#client/lib/types.ts'
import { VIDEO_AUTO_ADVANCE_MS } from '#shared/constants.ts'
import { css } from '#styled-system/css'
import { button } from '../ui/button.ts'
import { Icon } from '../ui/icons.tsx'

const navButton = css({
  h: '8',
  px: '3',
  fontSize: 'sm',
  borderWidth: '1px',
  borderColor: 'gray.500',
  borderRadius: 'control',
  cursor: 'pointer',
  _hover: { borderColor: 'white' },
})

// A 24 px target (WCAG 2.5.8) around a 12 px dot; the current one is also longer, not only brighter.
const dot = css({
  w: '6',
  h: '6',
  display: 'inline-grid',
  placeItems: 'center',
  borderRadius: 'full',
  cursor: 'pointer',
  _before: { content: '""', w: '3', h: '3', borderRadius: 'full', bg: 'gray.400', transition: 'width 0.2s' },
  '&[aria-current=true]::before': { w: '5', bg: 'white' },
})

type Video = RouterOutputs['content']['promoVideos'][number]

/**
 * Promo videos (spec §2, §9): play/pause, previous/next and one button per video; while playing it moves to
 * the next video every 15 s; a playback failure stops playing. Arrow keys move between videos.
 */
export function PromoCarousel({ videos }: { videos: Video[] }) {
  const [active, setActive] = useState(0)
  const [playing, setPlaying] = useState(false)
  const [failed, setFailed] = useState(false)
  const videoRef = useRef<HTMLVideoElement>(null)
  const count = videos.length
  const current = videos[active]

  const select = (index: number) => {
    setFailed(false)
    setActive(((index % count) + count) % count)
  }

  // biome-ignore lint/correctness/useExhaustiveDependencies: a newly selected video must start and get a fresh 15 s timer
  useEffect(() => {
    const video = videoRef.current
    if (!video) return
    if (!playing) {
      video.pause()
      return
    }
    video.play().catch(() => {
      setPlaying(false)
      setFailed(true)
    })
    const timer = window.setTimeout(() => setActive((index) => (index + 1) % count), VIDEO_AUTO_ADVANCE_MS)
    return () => window.clearTimeout(timer)
  }, [playing, count, active])

  if (!current) return null

  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key === 'ArrowRight') select(active + 1)
    else if (event.key === 'ArrowLeft') select(active - 1)
    else return
    event.preventDefault()
  }

  return (
    <section
      aria-roledescription="carousel"
      aria-label="Promo videos"
      data-surface="dark"
      onKeyDown={onKeyDown}
      className={css({ bg: 'ink', color: 'white', py: { base: '10', md: '14' } })}
    >
      <div className={css({ maxW: '4xl', mx: 'auto', px: '4', display: 'grid', gap: '4' })}>
        <div className={css({ position: 'relative' })}>
          <video
            key={current.id}
            ref={videoRef}
            data-testid="promo-video"
            data-playing={playing}
            src={current.src}
            poster={current.poster}
            muted
            playsInline
            preload="none"
            onError={() => {
              setPlaying(false)
              setFailed(true)
            }}
            onEnded={() => playing && select(active + 1)}
            className={css({ w: 'full', aspectRatio: '16/9', borderRadius: 'card', bg: 'black', objectFit: 'cover' })}
          >
            <track kind="captions" />
          </video>
        </div>
        <div aria-live="polite">
          <h2 className={css({ fontSize: 'xl', fontWeight: 'bold' })}>{current.title}</h2>
          <p className={css({ color: 'gray.300' })}>{current.description}</p>
          {failed ? (
            <p role="alert" className={css({ color: 'red.300', mt: '1', fontSize: 'sm' })}>
              This video could not be played.
            </p>
          ) : null}
        </div>
        <div className={css({ display: 'flex', alignItems: 'center', gap: '3', flexWrap: 'wrap' })}>
          <button
            type="button"
            className={button({ variant: 'light', size: 'sm' })}
            aria-label={playing ? 'Pause video' : 'Play video'}
            onClick={() => {
              setFailed(false)
              setPlaying((p) => !p)
            }}
          >
            <Icon name={playing ? 'pause' : 'play'} size={16} /> {playing ? 'Pause' : 'Play'}
          </button>
          <button type="button" className={navButton} onClick={() => select(active - 1)}>
            Previous video
          </button>
          <button type="button" className={navButton} onClick={() => select(active + 1)}>
            Next video
          </button>
          <div className={css({ display: 'flex', gap: '1', ml: 'auto' })}>
            {videos.map((video, index) => (
              <button
                key={video.id}
                type="button"
                aria-label={`Show video ${index + 1}: ${video.title}`}
                aria-current={index === active ? 'true' : undefined}
                onClick={() => select(index)}
                className={dot}
              />
            ))}
          </div>
        </div>
      </div>
    </section>
  )
}
