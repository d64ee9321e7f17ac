// The server's table of pages (http/page-status.ts) and the client's routes are the same set: a client route the
// table misses would answer 404 although it renders, and an entry without a route would answer 200 for nothing.
import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { NOT_FOUND_ROUTES, PAGE_ROUTES } from '../../src-server/flows/page-status.ts'

function clientRoutePaths(): string[] {
  const tree = readFileSync('src-client/routeTree.gen.ts', 'utf8')
  const block = /export interface FileRoutesByFullPath \{([\s\S]*?)\n\}/.exec(tree)?.[1] ?? ''
  const paths = [...block.matchAll(/^\s+'([^']+)':/gm)].map((match) => match[1]!)
  // '/courses/' and '/admin/' are the index routes of '/courses' and '/admin'.
  return [...new Set(paths.map((path) => (path.length > 1 ? path.replace(/\/$/, '') : path)))].sort()
}

describe('page routes', () => {
  it('lists exactly the client routes', () => {
    const client = clientRoutePaths()
    expect(client.length).toBeGreaterThan(20)
    const server = [...PAGE_ROUTES.map((route) => route.path), ...NOT_FOUND_ROUTES].sort()
    expect(server).toEqual(client)
  })

  it('checks existence for every public route with a parameter', () => {
    const signedIn = (path: string) =>
      path.startsWith('/account/') ||
      path.startsWith('/admin/') ||
      path.startsWith('/documents/') ||
      // A school member's page (issue 36): signed in, the server answers another school's as not found.
      path.startsWith('/member/') ||
      path.startsWith('/studio/')
    for (const route of PAGE_ROUTES) {
      if (signedIn(route.path)) continue
      expect(route.path.includes('$'), route.path).toBe(route.exists !== undefined)
    }
  })
})
