/**
 * The meta element by which a server-rendered page names its whole stylesheet: the page carries only the rules its own
 * markup uses (src-server/http/page-styles.ts) and the client fetches the rest (src-client/lib/page-styles.ts).
 */
export const WHOLE_STYLESHEET_META = 'whole-stylesheet'
