import { useQueryClient } from '@tanstack/react-query'
import { type ChangeEvent, useRef, useState } from 'react'
import { AVATAR_MAX_BYTES } from '../../../src-shared/constants.ts'
import { css } from '../../../styled-system/css'
import { type SessionUser, setSessionUser } from '../../lib/session.ts'
import { useTRPC } from '../../lib/use-trpc.ts'
import { Avatar } from '../auth/Avatar.tsx'
import { button } from '../ui/button.ts'
import { Spinner } from '../ui/states.tsx'
import { notify } from '../ui/toaster.tsx'
import { SectionCard } from './SectionCard.tsx'

const FAILED = 'Failed to upload image. Please try again.'

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
    if (!file.type.startsWith('image/')) return notify('error', 'Please select an image file')
    if (file.size > AVATAR_MAX_BYTES) return notify('error', 'Image size should be less than 2MB')
    setUploading(true)
    try {
      const body = new FormData()
      body.append('file', file)
      const response = await fetch('/api/profile/avatar', { method: 'POST', body, credentials: 'same-origin' })
      const answer = (await response.json().catch(() => ({}))) as { avatarUrl?: string; message?: string }
      if (!response.ok || !answer.avatarUrl) {
        const refused = response.status === 400 || response.status === 413 || response.status === 429
        notify('error', refused && answer.message ? answer.message : FAILED)
        return
      }
      await setSessionUser(queryClient, trpc, { ...user, avatarUrl: answer.avatarUrl })
      notify('success', 'Profile image updated successfully!')
    } catch {
      notify('error', FAILED)
    } finally {
      setUploading(false)
    }
  }

  return (
    <SectionCard title="Profile Image" description="Update your profile picture. Image should be under 2MB.">
      <div className={css({ display: 'flex', flexDir: 'column', alignItems: 'center', gap: '4' })}>
        <Avatar user={user} size="lg" />
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
          disabled={uploading}
          aria-busy={uploading}
          onClick={() => input.current?.click()}
        >
          {uploading ? <Spinner label="Uploading" /> : null}
          {uploading ? 'Uploading...' : 'Change Photo'}
        </button>
      </div>
    </SectionCard>
  )
}
