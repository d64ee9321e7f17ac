import { PROMO_VIDEO_COUNT } from '../../src-shared/constants.ts'
import { promoVideos, testimonials } from '../flows/home-content.ts'
import { publicProcedure, router } from '../trpc/init.ts'

export const contentRouter = router({
  testimonials: publicProcedure.query(async ({ ctx }) =>
    (await testimonials(ctx.db)).map((t) => ({
      id: t.id,
      content: t.content,
      author: t.author,
      role: t.role,
      image: t.image_url,
    })),
  ),

  promoVideos: publicProcedure.query(async ({ ctx }) =>
    (await promoVideos(ctx.db)).slice(0, PROMO_VIDEO_COUNT).map((v) => ({
      id: v.id,
      title: v.title,
      description: v.description,
      poster: v.poster_url,
      src: v.video_url,
    })),
  ),
})
