// A first page's chunk is named after its route file (vite.config.ts pageGroup), so the server can tell from the
// build's manifest which chunk a rendered page needs (src-server/http/ssr.ts routeChunkPreloads). A chunk's name keeps
// letters, digits, '.', '_', '-' and '~' only: '~' stands for '/' and '~-' for '$' (no route file has a '~').
const PREFIX = 'page~'

/** The chunk name of the first page whose route file is `route` (under routes/, no extension: `courses/$courseId`). */
export function pageChunkName(route: string): string {
  return PREFIX + route.replaceAll('$', '~-').replaceAll('/', '~')
}

/** The route file a page chunk's name stands for, or null for any other chunk. */
export function routeOfPageChunk(name: string): string | null {
  return name.startsWith(PREFIX) ? name.slice(PREFIX.length).replaceAll('~-', '$').replaceAll('~', '/') : null
}
