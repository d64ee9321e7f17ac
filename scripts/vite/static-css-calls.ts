// Panda's `css({...})` turns a style object into its class names when it runs: on a phone, while the page hydrates.
// A trace of the course page at 4× CPU slowdown put close to half of React's hydration work in those calls (the
// style object walked, normalised, hashed into a memo key; issue 27, decision 0078). Almost every call in the app
// passes a literal object, whose class names are known when the app is built: this plugin asks Panda's own
// generated runtime (styled-system/css) for them at build time and writes the string in place of the call, in the
// browser's bundle and the server renderer's alike. A call with anything computed in it (a variable, a condition, a
// spread) is left to the runtime, which gives the same names. The stylesheet is not involved: Panda extracts it from
// the sources on disk, before and without this.
import MagicString from 'magic-string'
import type { Plugin } from 'vite'

/** The ESTree nodes this transform reads (the parser's Program, as `this.parse` returns it), with their offsets. */
interface Node {
  type: string
  start: number
  end: number
  [key: string]: unknown
}

type StyleValue = string | number | boolean | null | StyleValue[] | { [key: string]: StyleValue }
/** Panda's css(), called with the literal objects the sources pass it (typed loosely: they are read from the AST). */
// biome-ignore lint/suspicious/noExplicitAny: see above
type CssFunction = (...styles: any[]) => string

const NOT_STATIC = Symbol('not static')

/** The value of a literal expression (strings, numbers, booleans, null, objects and arrays of them), or NOT_STATIC. */
function staticValue(node: Node): StyleValue | typeof NOT_STATIC {
  switch (node.type) {
    case 'Literal': {
      const value = node.value
      if (node.regex || node.bigint || (typeof value === 'object' && value !== null)) return NOT_STATIC
      return value as StyleValue
    }
    case 'TemplateLiteral': {
      const quasis = node.quasis as { value: { cooked: string | null } }[]
      const cooked = quasis[0]?.value.cooked
      return (node.expressions as Node[]).length === 0 && typeof cooked === 'string' ? cooked : NOT_STATIC
    }
    case 'UnaryExpression': {
      const argument = staticValue(node.argument as Node)
      if (typeof argument !== 'number') return NOT_STATIC
      return node.operator === '-' ? -argument : node.operator === '+' ? argument : NOT_STATIC
    }
    case 'ArrayExpression': {
      const values: StyleValue[] = []
      for (const element of node.elements as (Node | null)[]) {
        const value = element ? staticValue(element) : NOT_STATIC
        if (value === NOT_STATIC) return NOT_STATIC
        values.push(value)
      }
      return values
    }
    case 'ObjectExpression': {
      const object: { [key: string]: StyleValue } = {}
      for (const property of node.properties as Node[]) {
        if (property.type !== 'Property' || property.kind !== 'init' || property.method) return NOT_STATIC
        const key = property.key as Node
        const name = property.computed
          ? staticValue(key)
          : key.type === 'Identifier'
            ? (key.name as string)
            : staticValue(key)
        if (typeof name !== 'string' && typeof name !== 'number') return NOT_STATIC
        const value = staticValue(property.value as Node)
        if (value === NOT_STATIC) return NOT_STATIC
        object[String(name)] = value
      }
      return object
    }
    default:
      return NOT_STATIC
  }
}

/** Every node below `node`, depth first. */
function* descendants(node: unknown): Generator<Node> {
  if (Array.isArray(node)) {
    for (const child of node) yield* descendants(child)
    return
  }
  if (!node || typeof node !== 'object' || typeof (node as Node).type !== 'string') return
  yield node as Node
  for (const [key, value] of Object.entries(node)) {
    if (key !== 'type' && value && typeof value === 'object') yield* descendants(value)
  }
}

/** The names a binding pattern declares (`a`, `{ a, b: c }`, `[a, ...b]`, `a = 1`). */
function* boundNames(pattern: Node | null | undefined): Generator<string> {
  if (!pattern) return
  if (pattern.type === 'Identifier') yield pattern.name as string
  else if (pattern.type === 'ObjectPattern')
    for (const property of pattern.properties as Node[])
      yield* boundNames((property.type === 'RestElement' ? property.argument : property.value) as Node)
  else if (pattern.type === 'ArrayPattern') for (const element of pattern.elements as Node[]) yield* boundNames(element)
  else if (pattern.type === 'RestElement') yield* boundNames(pattern.argument as Node)
  else if (pattern.type === 'AssignmentPattern') yield* boundNames(pattern.left as Node)
}

/** Whether anything in the module declares `name` besides its import (then a call to it may not be Panda's). */
function declaredBesidesImport(program: Node, name: string): boolean {
  for (const node of descendants(program)) {
    const declared =
      node.type === 'VariableDeclarator'
        ? [...boundNames(node.id as Node)]
        : node.type === 'FunctionDeclaration' ||
            node.type === 'FunctionExpression' ||
            node.type === 'ArrowFunctionExpression'
          ? [...((node.params as Node[]).flatMap((param) => [...boundNames(param)]) ?? []), (node.id as Node)?.name]
          : node.type === 'ClassDeclaration' || node.type === 'CatchClause'
            ? [...boundNames((node.id ?? node.param) as Node)]
            : []
    if (declared.includes(name)) return true
  }
  return false
}

/** The local name the module gives Panda's `css` (imported from a `styled-system/css` path), if it imports it. */
function cssImportName(program: Node): string | undefined {
  for (const statement of program.body as Node[]) {
    if (
      statement.type !== 'ImportDeclaration' ||
      !/styled-system\/css(?:\/index\.mjs)?$/.test(String((statement.source as Node).value))
    )
      continue
    for (const specifier of statement.specifiers as Node[]) {
      const imported = specifier.imported as Node | undefined
      if (specifier.type === 'ImportSpecifier' && (imported?.name ?? imported?.value) === 'css')
        return (specifier.local as Node).name as string
    }
  }
  return undefined
}

/**
 * The module's code with each `css(...)` call whose arguments are all literal objects replaced by the class names
 * Panda's runtime gives them (a map when any was), and how many calls were replaced and kept; null when the module
 * does not import Panda's css or declares the name again.
 */
export function inlineStaticCssCalls(
  code: string,
  program: Node,
  css: CssFunction,
): { code: string; map: ReturnType<MagicString['generateMap']> | null; replaced: number; kept: number } | null {
  const name = cssImportName(program)
  if (!name || declaredBesidesImport(program, name)) return null
  const output = new MagicString(code)
  let replaced = 0
  let kept = 0
  for (const node of descendants(program)) {
    if (node.type !== 'CallExpression' || (node.callee as Node).type !== 'Identifier') continue
    if ((node.callee as Node).name !== name) continue
    kept++
    const args = (node.arguments as Node[]).map(staticValue)
    if (
      args.length === 0 ||
      args.some((value) => value === NOT_STATIC || typeof value !== 'object' || Array.isArray(value))
    )
      continue
    output.overwrite(node.start, node.end, JSON.stringify(css(...(args as Record<string, unknown>[]))))
    replaced++
    kept--
  }
  if (replaced === 0) return { code, map: null, replaced, kept }
  return { code: output.toString(), map: output.generateMap({ hires: true }), replaced, kept }
}

/** The Vite plugin: the app's own modules (not node_modules, not the generated styled-system), after JSX is compiled. */
export function staticCssCalls(cssModule: string): Plugin {
  let css: CssFunction | undefined
  const count = { replaced: 0, kept: 0 }
  return {
    name: 'storefront:static-css-calls',
    enforce: 'post',
    async buildStart() {
      css = ((await import(cssModule)) as { css: CssFunction }).css
      count.replaced = count.kept = 0
    },
    transform(code, id) {
      if (!css || !code.includes('css') || /node_modules|styled-system/.test(id) || !/src-client/.test(id)) return null
      const result = inlineStaticCssCalls(code, this.parse(code) as unknown as Node, css)
      if (!result) return null
      count.replaced += result.replaced
      count.kept += result.kept
      return result.map && { code: result.code, map: result.map }
    },
    buildEnd() {
      console.log(`css() calls: ${count.replaced} written as class names at build time, ${count.kept} left to run`)
    },
  }
}
