// A course's state in the studio: Draft, In review, Changes requested, Published, Unpublished.
import { badge } from '#client/components/ui/badge.ts'
import { STUDIO_STATE_LABELS, type StudioState } from '#shared/studio.ts'

const TONES = {
  draft: 'grey',
  in_review: 'blue',
  changes_requested: 'yellow',
  published: 'green',
  unpublished: 'red',
  archived: 'grey',
} as const

export function StateBadge({ status, testId }: { status: StudioState | 'archived'; testId?: string }) {
  return (
    <span className={badge({ tone: TONES[status] })} data-testid={testId}>
      {STUDIO_STATE_LABELS[status]}
    </span>
  )
}
