/** schema.org structured data for search engines. '<' is escaped so the data can never close the script tag. */
export function JsonLd({ data }: { data: Record<string, unknown> }) {
  const json = JSON.stringify(data).replace(/</g, '\\u003c')
  // biome-ignore lint/security/noDangerouslySetInnerHtml: escaped JSON, not HTML
  return <script type="application/ld+json" dangerouslySetInnerHTML={{ __html: json }} />
}

/** A price in minor units as schema.org wants it: '129.99'. */
export function offerPrice(minor: number): string {
  return (minor / 100).toFixed(2)
}
