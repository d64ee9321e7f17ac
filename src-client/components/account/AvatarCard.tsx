import { useQueryClient } from '@tanstack/react-query'
import { type ChangeEvent, useRef, useState } from 'react'
import { type SessionUser, setSessionUser } from '#client/lib/session.ts'
import { useTRPC } from '#client/lib/use-trpc.ts'
import { whilePending } from '#client/lib/while-pending.ts'
import { AVATAR_MESSAGES } from '#shared/uploads.ts'
import { css } from '#styled-system/css'
import { Avatar } from '../auth/Avatar.tsx'
import { button } from '../ui/button.ts'
import { Spinner } from '../ui/states.tsx'
import { notify } from '../ui/toaster.tsx'
import { uploadImage } from '../ui/upload-image.ts'
import { SectionCard } from './SectionCard.tsx'

/** Profile image card (spec §2): current avatar, Change Photo, and the 2 MB hint. The server checks again. */
export function AvatarCard({ user }: { user: SessionUser }) {
  const trpc = useTRPC()
  const queryClient = useQueryClient()
  const input = useRef<HTMLInputElement>(null)
  const [uploading, setUploading] = useState(false)

  async function onFile(event: ChangeEvent<HTMLInputElement>) {
    const file = event.target.files?.[0]
    event.target.value = '' // choosing the same file again still fires change
    if (!file) return
    setUploading(true)
    try {
      const stored = await uploadImage('/api/profile/avatar', file, 'avatarUrl')
      if (!stored) return
      await setSessionUser(queryClient, trpc, { ...user, avatarUrl: stored.url })
      notify('success', AVATAR_MESSAGES.updated)
    } finally {
      setUploading(false)
    }
  }

  return (
    <SectionCard title="Profile Image" description="Update your profile picture. Image should be under 2MB.">
      <div className={css({ display: 'flex', flexDir: 'column', alignItems: 'center', gap: '4' })}>
        <Avatar name={`${user.firstName} ${user.lastName}`} email={user.email} avatarUrl={user.avatarUrl} size="lg" />
        <input
          ref={input}
          type="file"
          accept="image/*"
          aria-label="Profile image file"
          data-testid="avatar-input"
          onChange={onFile}
          className={css({ display: 'none' })}
        />
        <button
          type="button"
          className={button({ variant: 'outline' })}
          aria-busy={uploading}
          {...whilePending(uploading, 'onClick', () => input.current?.click())}
        >
          {uploading ? <Spinner label="Uploading" /> : null}
          {uploading ? 'Uploading...' : 'Change Photo'}
        </button>
      </div>
    </SectionCard>
  )
}
