/**
 * What a literal Panda cva() recipe becomes in the build (scripts/vite/static-css-calls.ts): its class names for every
 * choice of its variants, computed by Panda's runtime when the app is built, looked up here. The page then runs none of
 * Panda's runtime (issue 27: ~5 kB of a phone's first JavaScript, and its set-up on a slowed CPU).
 */
export function staticRecipe(
  table: Record<string, string>,
  keys: readonly string[],
  defaults: Record<string, unknown>,
): (props?: Record<string, unknown>) => string {
  return (props = {}) => table[keys.map((key) => String(props[key] ?? defaults[key])).join('|')] ?? ''
}
