// The server's table of pages (http/page-status.ts) and the client's routes are the same set: a client route the
// table misses would answer 404 although it renders, and an entry without a route would answer 200 for nothing.
import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { NOT_FOUND_ROUTES, PAGE_ROUTES } from '../../src-server/flows/page-status.ts'
import { SCHOOL_SITE_SEGMENTS, schoolSitePlace } from '../../src-shared/school-site.ts'

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

  it('says for every page what a school’s own domain does with it (decision 0143)', () => {
    const segments = new Set(clientRoutePaths().map((path) => path.split('/')[1] ?? ''))
    expect([...segments].filter((segment) => !Object.hasOwn(SCHOOL_SITE_SEGMENTS, segment))).toEqual([])
    // The home and the catalogue are the school's page; the marketplace's own pages go to its origin.
    expect(schoolSitePlace('/')).toEqual({ to: 'home' })
    expect(schoolSitePlace('/courses')).toEqual({ to: 'home' })
    expect(schoolSitePlace('/courses/category/business')).toEqual({ to: 'home' })
    for (const path of ['/pricing', '/services', '/service/x', '/about', '/teach', '/teach/apply', '/instructors/a']) {
      expect(schoolSitePlace(path), path).toEqual({ to: 'marketplace' })
    }
    for (const path of ['/studio/courses', '/admin', '/auth/google', '/auth/facebook/start']) {
      expect(schoolSitePlace(path), path).toEqual({ to: 'marketplace' })
    }
    // Checked against the school: a course, a bundle, a school's page (its slug read as the server reads it).
    expect(schoolSitePlace('/courses/c-1')).toEqual({ to: 'course', courseId: 'c-1' })
    expect(schoolSitePlace('/bundles/starter%20pack')).toEqual({ to: 'bundle', slug: 'starter pack' })
    expect(schoolSitePlace('/s/Cora-Academy')).toEqual({ to: 'schoolPage', slug: 'cora-academy' })
    // The player is checked by its course, as the course's page is.
    expect(schoolSitePlace('/learn/c-1')).toEqual({ to: 'course', courseId: 'c-1' })
    expect(schoolSitePlace('/learn/c%201/l-1')).toEqual({ to: 'course', courseId: 'c 1' })
    expect(schoolSitePlace('/account/messages/c-1')).toEqual({ to: 'course', courseId: 'c-1' })
    // A certificate is checked by the course it was earned in (the server looks it up).
    expect(schoolSitePlace('/certificates/cert-1')).toEqual({ to: 'certificate', certificateId: 'cert-1' })
    for (const path of ['/account/premium', '/account/membership', '/account/services/s-1']) {
      expect(schoolSitePlace(path), path).toEqual({ to: 'marketplace' })
    }
    // The learner's pages, and what is not a page at all, are served as they are.
    for (const path of [
      '/cart',
      '/login',
      '/account/security',
      '/account/messages',
      '/learn',
      '/certificates',
      '/auth/callback',
    ]) {
      expect(schoolSitePlace(path), path).toBeNull()
    }
    for (const path of ['/trpc/catalog.search', '/assets/index.js', '/favicon.svg', '/administer', '/s', '/x/y']) {
      expect(schoolSitePlace(path), path).toBeNull()
    }
  })
})
