import type { SeedPromoVideo, SeedTestimonial } from './types.ts'

export const testimonials: SeedTestimonial[] = [
  {
    content:
      'Launching my JavaScript course here was the best decision of my teaching career. The course builder is intuitive, and within six months I had more than 4,000 students from over 60 countries.',
    author: 'Daniel Kim',
    role: 'Web Development Instructor',
    imageUrl: '/images/avatars/testimonial-1.svg',
  },
  {
    content:
      'For years I sold workshops through my own website and spent more time on admin than teaching. With the built-in checkout, coupons and analytics I finally understand what my students want, and my course income has tripled.',
    author: 'Sofia Martins',
    role: 'Brand Design Instructor',
    imageUrl: '/images/avatars/testimonial-2.svg',
  },
  {
    content:
      'The support team helped me structure my first finance course and get it live in a single weekend. Students love the certificates, and my payouts arrive on time every month.',
    author: 'Oliver Grant',
    role: 'Financial Modelling Instructor',
    imageUrl: '/images/avatars/testimonial-3.svg',
  },
]

export const promoVideos: SeedPromoVideo[] = [
  {
    title: 'Create Your First Course in Minutes',
    description: 'See how to plan, record and publish a course with our step-by-step course builder.',
    posterUrl: '/images/posters/promo-1.svg',
    videoUrl: '/media/promo-1.mp4',
  },
  {
    title: 'Grow Your Audience',
    description: 'Learn how successful creators use coupons, bundles and email campaigns to reach more students.',
    posterUrl: '/images/posters/promo-2.svg',
    videoUrl: '/media/promo-2.mp4',
  },
  {
    title: 'Get Paid for What You Know',
    description: 'Discover how payouts, subscriptions and business services turn your expertise into income.',
    posterUrl: '/images/posters/promo-3.svg',
    videoUrl: '/media/promo-3.mp4',
  },
]
