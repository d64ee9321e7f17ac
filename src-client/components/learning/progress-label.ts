// The learner's progress in words, as the course page, My courses and the player show it.
export function progressLabel(
  progress: { completed: number; total: number; percent: number },
  completedAt?: string | null,
) {
  if (completedAt || (progress.total > 0 && progress.completed >= progress.total)) return 'Completed'
  if (progress.completed === 0) return 'Not started'
  return `${progress.percent}% complete`
}
