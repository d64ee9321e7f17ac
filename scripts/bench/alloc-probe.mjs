// Preloaded into a server by `npm run bench:alloc` (node --import): SIGUSR2 starts counting the bytes the JavaScript
// heap allocates (v8.GCProfiler: what each collection found in use, against what the previous one left), the next
// SIGUSR2 stops and writes the total, the collections and their pause to ALLOC_PROBE_OUT as JSON.
import { writeFileSync } from 'node:fs'
import v8 from 'node:v8'

let profiler
let startUsed = 0
process.on('SIGUSR2', () => {
  if (!profiler) {
    profiler = new v8.GCProfiler()
    startUsed = v8.getHeapStatistics().used_heap_size
    profiler.start()
    return
  }
  const { statistics } = profiler.stop()
  profiler = undefined
  const endUsed = v8.getHeapStatistics().used_heap_size
  let allocated = 0
  let previous = startUsed
  let pauseUs = 0
  let scavenges = 0
  let promoted = 0
  for (const gc of statistics) {
    allocated += gc.beforeGC.heapStatistics.usedHeapSize - previous
    previous = gc.afterGC.heapStatistics.usedHeapSize
    pauseUs += gc.cost
    if (gc.gcType === 'Scavenge') scavenges++
    const old = (stats) =>
      stats.heapSpaceStatistics.find((space) => space.spaceName === 'old_space')?.spaceUsedSize ?? 0
    if (gc.gcType === 'Scavenge') promoted += Math.max(0, old(gc.afterGC) - old(gc.beforeGC))
  }
  allocated += endUsed - previous
  writeFileSync(
    process.env.ALLOC_PROBE_OUT,
    JSON.stringify({ allocated, collections: statistics.length, scavenges, pauseUs, promoted }),
  )
})
