import { type ImgHTMLAttributes, useState } from 'react'
import { css, cx } from '#styled-system/css'

/** Lazy image that falls back to the placeholder when it fails to load (spec §8). */
export function SafeImage({
  src,
  alt,
  fallback = '/placeholder.svg',
  ...rest
}: ImgHTMLAttributes<HTMLImageElement> & { alt: string; fallback?: string }) {
  const [failed, setFailed] = useState(false)
  return (
    <img
      loading="lazy"
      decoding="async"
      {...rest}
      alt={alt}
      src={failed || !src ? fallback : src}
      onError={() => setFailed(true)}
    />
  )
}

const photo = css({ borderRadius: 'full', objectFit: 'cover', flexShrink: 0 })
const photoSizes = {
  56: css({ w: '14', h: '14' }),
  80: css({ w: '20', h: '20' }),
  96: css({ w: '24', h: '24' }),
  128: css({ w: '32', h: '32' }),
} as const

/** A person's round photo (an instructor's, the creator's own), `size` pixels across; the placeholder when it fails. */
export function ProfilePhoto({
  src,
  alt,
  size,
}: {
  src: string | null | undefined
  alt: string
  size: keyof typeof photoSizes
}) {
  return (
    <SafeImage src={src ?? undefined} alt={alt} width={size} height={size} className={cx(photo, photoSizes[size])} />
  )
}
