// The router's head tags (HeadContent's), under a white-labelled school's brand (decision 0063): on the school's own
// domain every page's title, description and Open Graph tags name the school where they name SkillForge. One place,
// so no route's head has to know the Host; the server renders the same tags (the root loader awaits the brand there).
import { Asset, type RouterManagedTag, useRouter, useRouterState, useTags } from '@tanstack/react-router'
import { useBrand } from '#client/lib/brand.ts'
import { SITE_NAME } from '#client/lib/seo.ts'

/** The meta tags whose words a visitor reads (a tab, a bookmark, a link preview). */
const WORDED_META = new Set(['description', 'og:site_name', 'og:title', 'og:description', 'twitter:title'])

function rebrand(tag: RouterManagedTag, brandName: string): RouterManagedTag {
  const named = (text: string) => text.replaceAll(SITE_NAME, brandName)
  if (tag.tag === 'title') return { ...tag, children: named(tag.children) }
  const attribute = tag.attrs?.name ?? tag.attrs?.property
  if (tag.tag === 'meta' && WORDED_META.has(attribute) && typeof tag.attrs?.content === 'string') {
    return { ...tag, attrs: { ...tag.attrs, content: named(tag.attrs.content) } }
  }
  return tag
}

export function BrandedHeadContent() {
  const tags = useTags()
  const nonce = useRouter().options.ssr?.nonce
  // The admin area is never white-labelled and does not load the brand.
  const isAdmin = useRouterState({ select: (state) => state.location.pathname.startsWith('/admin') })
  const brand = useBrand({ enabled: !isAdmin })
  const shown = brand && !isAdmin ? tags.map((tag) => rebrand(tag, brand.displayName)) : tags
  return (
    <>
      {shown.map((tag) => (
        <Asset {...tag} key={`tsr-meta-${JSON.stringify(tag)}`} nonce={nonce} />
      ))}
    </>
  )
}
