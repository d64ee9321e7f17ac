// Lesson articles: Markdown rendered to HTML on the server, then sanitised with an allow-list (decision 0016).
// markdown-it runs with raw HTML off (tags in the source come out as text); sanitize-html then keeps only the
// listed tags and attributes, so no script, style, event handler or javascript: URL can reach the page, whatever
// the Markdown holds.
import MarkdownIt from 'markdown-it'
import sanitizeHtml from 'sanitize-html'

const markdown = new MarkdownIt({ html: false, linkify: true, typographer: true })

const SANITIZE: sanitizeHtml.IOptions = {
  allowedTags: [
    'h1',
    'h2',
    'h3',
    'h4',
    'h5',
    'h6',
    'p',
    'br',
    'hr',
    'blockquote',
    'pre',
    'code',
    'em',
    'strong',
    's',
    'del',
    'ul',
    'ol',
    'li',
    'a',
    'img',
    'table',
    'thead',
    'tbody',
    'tr',
    'th',
    'td',
  ],
  allowedAttributes: {
    a: ['href', 'title'],
    img: ['src', 'alt', 'title'],
    ol: ['start'],
    th: ['style'],
    td: ['style'],
  },
  allowedStyles: { th: { 'text-align': [/^(left|right|center)$/] }, td: { 'text-align': [/^(left|right|center)$/] } },
  allowedSchemes: ['http', 'https', 'mailto'],
  allowedSchemesByTag: { img: ['https'] },
  allowProtocolRelative: false,
  transformTags: {
    a: sanitizeHtml.simpleTransform('a', { rel: 'noopener noreferrer nofollow' }),
    // The page around the article has its own h1 (the lesson's or the course's title): a "# Heading" of the source
    // is the article's top heading, an h2, styled as such (markdown-article.ts), as "## Heading" is.
    h1: 'h2',
  },
}
// `rel` is added by the transform above; it must also be allowed to survive the filter.
;(SANITIZE.allowedAttributes as Record<string, string[]>).a?.push('rel')

export function renderMarkdown(source: string): string {
  return sanitizeHtml(markdown.render(source), SANITIZE)
}

/** Our own post images (/api/learn/post-images/<id>): the only images a question or answer may show. */
const POST_IMAGE_SRC = /^\/api\/learn\/post-images\/[0-9a-f-]{36}$/i
const POST_SANITIZE: sanitizeHtml.IOptions = {
  ...SANITIZE,
  // An image from anywhere else (a tracking pixel, a hot-linked file) is dropped, its alt text kept.
  transformTags: {
    ...SANITIZE.transformTags,
    img: (tagName, attribs): sanitizeHtml.Tag =>
      POST_IMAGE_SRC.test(attribs.src ?? '')
        ? { tagName, attribs: { src: attribs.src ?? '', alt: attribs.alt ?? '', loading: 'lazy' } }
        : { tagName: 'span', attribs: {}, text: attribs.alt ?? '' },
  },
  allowedAttributes: { ...SANITIZE.allowedAttributes, img: ['src', 'alt', 'loading'] },
}

/** Questions and answers under lessons: as lesson articles, but images only from the post-image route. */
export function renderPostMarkdown(source: string): string {
  return sanitizeHtml(markdown.render(source), POST_SANITIZE)
}
