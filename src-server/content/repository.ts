import type { DB } from '../kernel/db.ts'

export function listTestimonials(db: DB) {
  return db
    .selectFrom('testimonials')
    .select(['id', 'content', 'author', 'role', 'image_url'])
    .orderBy('position')
    .execute()
}

export function listPromoVideos(db: DB) {
  return db
    .selectFrom('promo_videos')
    .select(['id', 'title', 'description', 'poster_url', 'video_url'])
    .orderBy('position')
    .execute()
}
