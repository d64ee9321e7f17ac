import { type ImgHTMLAttributes, useState } from 'react'

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
