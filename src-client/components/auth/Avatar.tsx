import { useState } from 'react'
import { initials } from '#client/lib/initials.ts'
import { css, cx } from '#styled-system/css'

/** A person's picture, or their initials when there is none (or it fails to load). */
export function Avatar({
  name,
  email = '',
  avatarUrl = null,
  size = 'sm',
}: {
  name: string
  /** Gives the initial when the name is empty. */
  email?: string
  avatarUrl?: string | null
  size?: 'sm' | 'md' | 'lg'
}) {
  const [failedUrl, setFailedUrl] = useState<string | null>(null)
  const box = css({
    borderRadius: 'full',
    overflow: 'hidden',
    flexShrink: 0,
    display: 'inline-flex',
    alignItems: 'center',
    justifyContent: 'center',
    bg: 'brand.100',
    color: 'brand.700',
    fontWeight: 'bold',
  })
  const dims = {
    sm: css({ w: '8', h: '8', fontSize: 'xs' }),
    md: css({ w: '16', h: '16', fontSize: 'lg' }),
    lg: css({ w: '24', h: '24', fontSize: '2xl' }),
  }[size]
  if (avatarUrl && failedUrl !== avatarUrl) {
    return (
      <span className={cx(box, dims)}>
        <img
          src={avatarUrl}
          alt=""
          data-testid="avatar-image"
          onError={() => setFailedUrl(avatarUrl)}
          className={css({ w: 'full', h: 'full', objectFit: 'cover' })}
        />
      </span>
    )
  }
  return (
    <span className={cx(box, dims)} aria-hidden="true">
      {initials(name, email)}
    </span>
  )
}
