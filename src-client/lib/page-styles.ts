import { WHOLE_STYLESHEET_META } from '#shared/page-styles.ts'

/**
 * A server-rendered page carries only the rules its own markup uses (src-server/http/page-styles.ts): the whole
 * stylesheet, for what the app renders next (menus, dialogs, other pages), is asked for once the scripts have arrived,
 * so that it does not share a phone's bandwidth with them (issue 27), and arrives while the page hydrates.
 */
export function loadWholeStylesheet(): void {
  const meta = document.querySelector<HTMLMetaElement>(`meta[name="${WHOLE_STYLESHEET_META}"]`)
  if (!meta || document.querySelector(`link[rel="stylesheet"][href="${meta.content}"]`)) return
  const link = document.createElement('link')
  link.rel = 'stylesheet'
  link.href = meta.content
  document.head.append(link)
}
