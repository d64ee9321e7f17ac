// Placeholder for the resumable (tus) video upload the uploads part of issue 30 builds at this path with these props;
// the lead replaces it at merge. Until then it only says that uploads are not available here.
import { button } from '#client/components/ui/button.ts'

export interface VideoUploadProps {
  onUploaded: (upload: {
    uploadId: string
    fileName: string
    sizeBytes: number
    durationSeconds: number | null
  }) => void
  disabled?: boolean
}

export function VideoUpload({ disabled }: VideoUploadProps) {
  return (
    <button type="button" className={button({ variant: 'outline' })} disabled aria-disabled={disabled ?? true}>
      Video upload
    </button>
  )
}
