// Course image: uploaded to storage by the server, which checks it is an image under 2 MB.
import { useState } from 'react'
import { css } from '../../../../styled-system/css'
import { SafeImage } from '../../ui/SafeImage.tsx'
import { Spinner } from '../../ui/states.tsx'
import { notify } from '../../ui/toaster.tsx'
import { fieldClass } from '../styles.ts'

export function ImageField({
  value,
  replacing,
  onChange,
}: {
  value: string
  replacing: boolean
  onChange: (url: string) => void
}) {
  const [uploading, setUploading] = useState(false)

  async function upload(file: File) {
    if (!file.type.startsWith('image/')) return notify('error', 'Please select an image file')
    setUploading(true)
    try {
      const body = new FormData()
      body.append('file', file)
      const response = await fetch(`/api/admin/course-image${replacing ? '?replace=1' : ''}`, {
        method: 'POST',
        body,
        credentials: 'same-origin',
      })
      const result = (await response.json().catch(() => ({}))) as { url?: string; message?: string }
      if (!response.ok || !result.url) throw new Error(result.message ?? 'Failed to upload image. Please try again.')
      onChange(result.url)
      notify('success', result.message ?? 'Image uploaded successfully!')
    } catch (error) {
      notify('error', error instanceof Error ? error.message : 'Failed to upload image. Please try again.')
    } finally {
      setUploading(false)
    }
  }

  return (
    <div className={css({ display: 'flex', gap: '4', alignItems: 'center' })}>
      <SafeImage
        src={value || '/placeholder.svg'}
        alt="Course image preview"
        className={css({ w: '24', h: '16', objectFit: 'cover', borderRadius: 'control', bg: 'canvas' })}
      />
      <label className={fieldClass}>
        Course image
        <input
          type="file"
          accept="image/*"
          disabled={uploading}
          onChange={(event) => {
            const file = event.target.files?.[0]
            if (file) void upload(file)
            event.target.value = ''
          }}
        />
      </label>
      {uploading ? <Spinner label="Uploading image" /> : null}
    </div>
  )
}
