// The top frames of a V8 .cpuprofile by self time: `npx tsx scripts/bench/profile-top.ts file.cpuprofile [n]`.
import { readFileSync } from 'node:fs'

interface Node {
  id: number
  callFrame: { functionName: string; url: string; lineNumber: number }
  children?: number[]
}
interface Profile {
  nodes: Node[]
  samples: number[]
  timeDeltas: number[]
}

export function topFrames(file: string, count = 15): string[] {
  const profile = JSON.parse(readFileSync(file, 'utf8')) as Profile
  const byId = new Map(profile.nodes.map((node) => [node.id, node]))
  const self = new Map<string, number>()
  let total = 0
  profile.samples.forEach((id, index) => {
    const node = byId.get(id)
    const delta = profile.timeDeltas[index] ?? 0
    if (!node) return
    const { functionName, url, lineNumber } = node.callFrame
    const where = url
      ? `${url.replace(/^.*node_modules\//, '').replace(/^file:\/\/.*\/(dist|src)-?/, '')}:${lineNumber + 1}`
      : ''
    const key = `${functionName || '(anonymous)'} ${where}`.trim()
    self.set(key, (self.get(key) ?? 0) + delta)
    total += delta
  })
  return [...self.entries()]
    .sort((a, b) => b[1] - a[1])
    .slice(0, count)
    .map(([key, micros]) => `${((100 * micros) / total).toFixed(1).padStart(5)}%  ${key}`)
}

/**
 * Self time by owner: each sample goes to the nearest frame (itself or a caller) that belongs to a package in
 * node_modules or to the app's own code, so Node's internals (writev, JSON, crypto) count for whoever called them.
 */
export function timeByOwner(file: string, count = 12): string[] {
  const profile = JSON.parse(readFileSync(file, 'utf8')) as Profile
  const byId = new Map(profile.nodes.map((node) => [node.id, node]))
  const parent = new Map<number, number>()
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id)
  const owner = (url: string) => {
    const pkg = /node_modules\/((@[^/]+\/)?[^/]+)/.exec(url)?.[1]
    if (pkg) return pkg
    if (/\/(dist\/server|src-server|db)\//.test(url)) return 'app'
    return null
  }
  const totals = new Map<string, number>()
  let total = 0
  profile.samples.forEach((id, index) => {
    const delta = profile.timeDeltas[index] ?? 0
    let current: number | undefined = id
    let name = byId.get(id)?.callFrame.functionName ?? ''
    let found: string | null = null
    while (current !== undefined && !found) {
      found = owner(byId.get(current)?.callFrame.url ?? '')
      current = parent.get(current)
    }
    if (name === '(idle)' || name === '(garbage collector)' || name === '(program)') found = name
    name = found ?? 'node (no package caller)'
    totals.set(name, (totals.get(name) ?? 0) + delta)
    total += delta
  })
  return [...totals.entries()]
    .sort((a, b) => b[1] - a[1])
    .slice(0, count)
    .map(([key, micros]) => `${((100 * micros) / total).toFixed(1).padStart(5)}%  ${key}`)
}

if (import.meta.url === `file://${process.argv[1]}`) {
  for (const line of topFrames(process.argv[2] ?? '', Number(process.argv[3] ?? 15))) console.log(line)
  console.log('\nby owner (callers of Node internals included):')
  for (const line of timeByOwner(process.argv[2] ?? '')) console.log(line)
}
