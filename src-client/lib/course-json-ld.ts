// The course page's schema.org data. AggregateRating only when the course has at least one review: search engines
// treat a rating without reviews behind it as misleading (and so do we).
import { offerPrice } from '../components/ui/JsonLd.tsx'
import type { RouterOutputs } from './types.ts'

type Course = NonNullable<RouterOutputs['catalog']['course']>

export function courseJsonLd(course: Course, origin: string): Record<string, unknown> {
  return {
    '@context': 'https://schema.org',
    '@type': 'Course',
    name: course.title,
    description: course.description,
    image: new URL(course.image, origin).toString(),
    inLanguage: course.language,
    provider: { '@type': 'Organization', name: 'SkillForge' },
    instructor: { '@type': 'Person', name: course.instructor },
    ...(course.reviewCount > 0 && {
      aggregateRating: {
        '@type': 'AggregateRating',
        ratingValue: course.rating,
        reviewCount: course.reviewCount,
        bestRating: 5,
        worstRating: 1,
      },
    }),
    offers: {
      '@type': 'Offer',
      price: offerPrice(course.priceMinor),
      priceCurrency: course.currency,
      availability: 'https://schema.org/InStock',
      category: course.priceMinor === 0 ? 'Free' : 'Paid',
    },
  }
}
