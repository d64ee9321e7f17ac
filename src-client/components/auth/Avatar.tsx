import { useState } from 'react'
import { INITIALS_MAX } from '../../../src-shared/constants.ts'
import { css, cx } from '../../../styled-system/css'

export function initials(firstName: string, lastName: string, email: string): string {
  const letters = [firstName, lastName]
    .map((part) => part.trim().charAt(0))
    .join('')
    .toUpperCase()
  return (letters || email.charAt(0).toUpperCase()).slice(0, INITIALS_MAX)
}

/** The user's picture, or their initials when there is none (or it fails to load). */
export function Avatar({
  user,
  size = 'sm',
}: {
  user: { firstName: string; lastName: string; email: string; avatarUrl: string | null }
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
  if (user.avatarUrl && failedUrl !== user.avatarUrl) {
    return (
      <span className={cx(box, dims)}>
        <img
          src={user.avatarUrl}
          alt=""
          data-testid="avatar-image"
          onError={() => setFailedUrl(user.avatarUrl)}
          className={css({ w: 'full', h: 'full', objectFit: 'cover' })}
        />
      </span>
    )
  }
  return (
    <span className={cx(box, dims)} aria-hidden="true">
      {initials(user.firstName, user.lastName, user.email)}
    </span>
  )
}
