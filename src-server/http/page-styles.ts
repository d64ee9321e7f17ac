// A server-rendered page used to carry the app's whole stylesheet inline: ~9 kB gzipped of a ~25 kB page, on every
// first visit, before the browser may even ask for the scripts (issue 27: on a phone's "Fast 3G" each kB is ~6 ms).
// Panda's utilities are atomic (one class, one rule), so the rules a page needs are the ones naming a class its markup
// uses. The page carries those, and the whole stylesheet beside its name for the client, which fetches it once its
// scripts have arrived (src-client/lib/page-styles.ts), for what it renders next.

type CssNode =
  | { kind: 'statement'; text: string }
  /** A rule with declarations. `classes` is set for utilities only (the rules a page may leave out). */
  | { kind: 'rule'; text: string; classes: Set<string> | null }
  | { kind: 'block'; prelude: string; children: CssNode[] }

export interface PageStylesheet {
  /** The whole stylesheet's address (/assets/…css). */
  href: string
  /** The whole stylesheet's text. */
  whole: string
  /** The rules the markup's class attributes use, with every rule that is not a utility (reset, base, tokens). */
  rulesFor(markup: string): string
}

const UTILITIES_LAYER = '@layer utilities'
/** A class selector's name, with CSS escapes (`.md\:p_6`, `.\32 xl\:gap_4`). */
const CLASS_SELECTOR = /\.((?:\\[0-9a-fA-F]{1,6} ?|\\.|[\w-])+)/g
const CSS_ESCAPE = /\\([0-9a-fA-F]{1,6}) ?|\\(.)/g
const CLASS_ATTRIBUTE = /\sclass="([^"]*)"/g
const HTML_ENTITY = /&(amp|quot|#39|#x27|lt|gt);/g
const ENTITIES: Record<string, string> = { amp: '&', quot: '"', '#39': "'", '#x27': "'", lt: '<', gt: '>' }

function unescapeCss(name: string): string {
  return name.replace(CSS_ESCAPE, (_, hex: string | undefined, char: string | undefined) =>
    hex ? String.fromCodePoint(Number.parseInt(hex, 16)) : (char ?? ''),
  )
}

/** The end of the block opened at `open` (the index of its `{`), skipping escapes, strings and comments. */
function blockEnd(css: string, open: number): number {
  let depth = 0
  let quote: string | null = null
  for (let index = open; index < css.length; index++) {
    const char = css[index]
    if (char === '\\') index++
    else if (quote) {
      if (char === quote) quote = null
    } else if (char === '"' || char === "'") quote = char
    else if (char === '/' && css[index + 1] === '*') index = css.indexOf('*/', index + 2) + 1 || css.length
    else if (char === '{') depth++
    else if (char === '}' && --depth === 0) return index
  }
  throw new Error('page-styles: the stylesheet has an unclosed block')
}

function parse(css: string, inUtilities: boolean): CssNode[] {
  const nodes: CssNode[] = []
  let index = 0
  while (index < css.length) {
    const open = css.indexOf('{', index)
    const semicolon = css.indexOf(';', index)
    if (open < 0 && semicolon < 0) break
    if (semicolon >= 0 && (open < 0 || semicolon < open)) {
      const text = css.slice(index, semicolon + 1).trim()
      if (text) nodes.push({ kind: 'statement', text })
      index = semicolon + 1
      continue
    }
    const close = blockEnd(css, open)
    const prelude = css.slice(index, open).trim()
    const body = css.slice(open + 1, close)
    if (prelude.startsWith('@') && body.includes('{')) {
      const utilities = inUtilities || prelude === UTILITIES_LAYER
      nodes.push({ kind: 'block', prelude, children: parse(body, utilities) })
    } else {
      const classes = inUtilities
        ? new Set(Array.from(prelude.matchAll(CLASS_SELECTOR), (match) => unescapeCss(match[1] ?? '')))
        : null
      nodes.push({ kind: 'rule', text: `${prelude}{${body}}`, classes })
    }
    index = close + 1
  }
  return nodes
}

/** Whether any of `names` is in `used` (no array made: this runs for every utility of every rendered page). */
function namesAny(names: ReadonlySet<string>, used: ReadonlySet<string>): boolean {
  for (const name of names) if (used.has(name)) return true
  return false
}

function serialize(nodes: readonly CssNode[], used: ReadonlySet<string>): string {
  let out = ''
  for (const node of nodes) {
    if (node.kind === 'statement') out += node.text
    else if (node.kind === 'rule') {
      // A utility stays when any class it names is used (`.group:hover .group-hover\:x` names two).
      if (!node.classes || namesAny(node.classes, used)) out += node.text
    } else {
      const inner = serialize(node.children, used)
      if (inner) out += `${node.prelude}{${inner}}`
    }
  }
  return out
}

/** The class names the markup's elements carry. */
export function classesIn(markup: string): Set<string> {
  const classes = new Set<string>()
  for (const [, value = ''] of markup.matchAll(CLASS_ATTRIBUTE)) {
    for (const name of value.replace(HTML_ENTITY, (_, entity: string) => ENTITIES[entity] ?? '').split(/\s+/)) {
      if (name) classes.add(name)
    }
  }
  return classes
}

export function pageStylesheet(css: string, href: string): PageStylesheet {
  const nodes = parse(css, false)
  return { href, whole: css, rulesFor: (markup) => serialize(nodes, classesIn(markup)) }
}
