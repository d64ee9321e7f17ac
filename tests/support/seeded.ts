// The run's seed (vitest.config.ts passes it to every test worker as TEST_SEED; the run prints it, and TEST_SEED=<seed>
// repeats it) and a small deterministic random source on it, for tests that sample a large matrix: each run tries
// another part, the same seed the same part.

export function testSeed(): number {
  const seed = Number(process.env.TEST_SEED)
  return Number.isFinite(seed) ? seed : 0
}

/** mulberry32: a 32-bit generator, [0, 1). Several streams of one seed stay apart through `stream`. */
export function seededRandom(seed: number = testSeed(), stream = ''): () => number {
  let state = (seed ^ hash(stream)) >>> 0
  return () => {
    state = (state + 0x6d2b79f5) >>> 0
    let t = state
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

/** A shuffled copy (Fisher–Yates). */
export function shuffled<T>(items: readonly T[], random: () => number): T[] {
  const copy = [...items]
  for (let i = copy.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1))
    ;[copy[i], copy[j]] = [copy[j]!, copy[i]!]
  }
  return copy
}

function hash(text: string): number {
  let h = 2166136261
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 16777619)
  return h >>> 0
}
