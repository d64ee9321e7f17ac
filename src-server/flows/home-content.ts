// The home page's reads of staff content (the featured services, the promo videos, the testimonials), kept with the
// catalogue snapshot like its featured courses and categories (decision 0082): catalog_version moves with these tables
// too (migration 2026_12_06_0000), and the home page asks for all of them on every visit. The rows are shared by
// every caller: the routers map them into new objects.
import { keptRead } from '../catalog/catalogue-snapshot.ts'
import { listPromoVideos, listTestimonials } from '../content/repository.ts'
import type { DB } from '../kernel/db.ts'
import { listFeaturedServices } from '../services/repository.ts'

export function featuredServices(db: DB, limit: number) {
  return keptRead(db, `featured services ${limit}`, () => listFeaturedServices(db, limit))
}

export function promoVideos(db: DB) {
  return keptRead(db, 'promo videos', () => listPromoVideos(db))
}

export function testimonials(db: DB) {
  return keptRead(db, 'testimonials', () => listTestimonials(db))
}
