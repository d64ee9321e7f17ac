// Per-route <title>, meta description and Open Graph tags for TanStack Router's `head`.
export const SITE_NAME = 'SkillForge'

export interface SeoInput {
  title: string
  description: string
  image?: string
  type?: 'website' | 'article' | 'product'
  /** A white-labelled school's own name instead of SkillForge's (decision 0063). */
  siteName?: string
}

export function seo({ title, description, image, type = 'website', siteName = SITE_NAME }: SeoInput) {
  const fullTitle = title === siteName ? title : `${title} | ${siteName}`
  return {
    meta: [
      { title: fullTitle },
      { name: 'description', content: description },
      { property: 'og:site_name', content: siteName },
      { property: 'og:title', content: fullTitle },
      { property: 'og:description', content: description },
      { property: 'og:type', content: type },
      ...(image ? [{ property: 'og:image', content: image }] : []),
      { name: 'twitter:card', content: image ? 'summary_large_image' : 'summary' },
    ],
  }
}

/** What a product page's loader returns for its head: the course or service, or null when there is none. */
export interface ProductHead {
  title: string
  description: string
  image: string
}

/** The head of a product page (a course, a service), or the not-found page's when there is no such product. */
export function productSeo(product: ProductHead | null | undefined, notFound: SeoInput) {
  if (!product) return seo(notFound)
  return seo({ title: product.title, description: summary(product.description), image: product.image, type: 'product' })
}

/** Shortens a long description for a meta tag without cutting a word in half. */
export function summary(text: string, max = 155): string {
  if (text.length <= max) return text
  return `${text.slice(0, text.lastIndexOf(' ', max - 1))}…`
}
