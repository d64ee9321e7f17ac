// Course image: uploaded to storage by the server, which checks it is an image under 2 MB.
import { useState } from 'react'
import { TextField } from '#client/components/ui/form.tsx'
import { SafeImage } from '#client/components/ui/SafeImage.tsx'
import { Spinner } from '#client/components/ui/states.tsx'
import { notify, notifyError } from '#client/components/ui/toaster.tsx'
import { uploadImage } from '#client/components/ui/upload-image.ts'
import { pickWhilePending } from '#client/lib/while-pending.ts'
import { COURSE_IMAGE_MESSAGES } from '#shared/uploads.ts'
import { css, cx } from '#styled-system/css'
import { fieldBox } from '../styles.ts'

export function ImageField({
  value,
  replacing,
  onChange,
  error,
  endpoint = '/api/admin/course-image',
  keep,
}: {
  value: string
  replacing: boolean
  onChange: (url: string) => void
  /** The server's refusal of the image, under the picker. */
  error?: string
  /** Where the image is posted: the admin's route, or the studio's (creators). */
  endpoint?: string
  /**
   * Saves the uploaded image on the course at once (the studio's page form), so "uploaded successfully" is true when
   * it is said; without it the image is kept by the form's own Save (the admin's dialog). A failure is toasted.
   */
  keep?: (url: string) => Promise<unknown>
}) {
  const [uploading, setUploading] = useState(false)

  async function upload(file: File) {
    setUploading(true)
    try {
      const stored = await uploadImage(`${endpoint}${replacing ? '?replace=1' : ''}`, file, 'url')
      if (!stored) return
      if (keep) {
        try {
          await keep(stored.url)
        } catch (error) {
          notifyError(error, 'The image was not saved')
          return
        }
      }
      onChange(stored.url)
      const fallback = replacing ? COURSE_IMAGE_MESSAGES.replaced : COURSE_IMAGE_MESSAGES.uploaded
      notify('success', stored.message ?? fallback)
    } finally {
      setUploading(false)
    }
  }

  return (
    <div className={css({ display: 'flex', gap: '4', alignItems: 'center', flexWrap: 'wrap' })}>
      <SafeImage
        src={value || '/placeholder.svg'}
        alt="Course image preview"
        className={css({ w: '24', h: '16', objectFit: 'cover', borderRadius: 'control', bg: 'canvas' })}
      />
      <TextField
        label="Course image"
        type="file"
        className={cx(fieldBox, css({ minW: 0, flex: '1 1 12rem' }))}
        accept="image/*"
        error={error}
        {...pickWhilePending(uploading, (event) => {
          const file = event.target.files?.[0]
          if (file) void upload(file)
          event.target.value = ''
        })}
      />
      {uploading ? <Spinner label="Uploading image" /> : null}
    </div>
  )
}
