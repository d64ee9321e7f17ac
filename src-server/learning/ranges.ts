// Watched ranges of a video, [start, end] in seconds. The server keeps them merged (sorted, non-overlapping), so a
// repeated or late write adds nothing and the watched total never goes down.
import type { WatchedRange } from '../../db/types.ts'

/** Sorted union of the ranges, clamped to [0, duration]; empty or inverted ranges are dropped. */
export function mergeRanges(ranges: readonly WatchedRange[], durationSeconds: number): WatchedRange[] {
  const clamped = ranges
    .map(([start, end]): WatchedRange => [Math.max(0, start), Math.min(durationSeconds, end)])
    .filter(([start, end]) => Number.isFinite(start) && Number.isFinite(end) && end > start)
    .sort((a, b) => a[0] - b[0])
  const merged: WatchedRange[] = []
  for (const [start, end] of clamped) {
    const last = merged.at(-1)
    // Ranges that overlap or touch are one; a gap, however small, is not watched.
    if (last && start <= last[1]) last[1] = Math.max(last[1], end)
    else merged.push([start, end])
  }
  return merged.map(([start, end]) => [round(start), round(end)])
}

const round = (seconds: number) => Math.round(seconds * 100) / 100

export function watchedSeconds(ranges: readonly WatchedRange[]): number {
  return round(ranges.reduce((sum, [start, end]) => sum + (end - start), 0))
}

/** A video completes itself when this share of it has been watched. */
export const AUTO_COMPLETE_SHARE = 0.9

export function watchedEnough(watched: number, durationSeconds: number): boolean {
  return durationSeconds > 0 && watched >= AUTO_COMPLETE_SHARE * durationSeconds
}
