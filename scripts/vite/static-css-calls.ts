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

/** The local name the module gives Panda's `css` or `cva` (imported from a `styled-system/css` path), if it does. */
function pandaImportName(program: Node, exported: 'css' | 'cva'): string | undefined {
  for (const statement of program.body as Node[]) {
    if (
      statement.type !== 'ImportDeclaration' ||
      !/styled-system\/css(?:\/index\.mjs)?$/.test(String((statement.source as Node).value))
    )
      continue
    for (const specifier of statement.specifiers as Node[]) {
      const imported = specifier.imported as Node | undefined
      if (specifier.type === 'ImportSpecifier' && (imported?.name ?? imported?.value) === exported)
        return (specifier.local as Node).name as string
    }
  }
  return undefined
}

/** A style value chosen at runtime between literal ones (`bg: mine ? 'brand.50' : 'surface'`, nested too). */
type Choice = { test: string; consequent: Choice | StyleValue | undefined; alternate: Choice | StyleValue | undefined }

function choiceOf(code: string, node: Node): Choice | StyleValue | undefined | typeof NOT_STATIC {
  if (node.type === 'Identifier' && node.name === 'undefined') return undefined
  if (node.type !== 'ConditionalExpression') return staticValue(node)
  const consequent = choiceOf(code, node.consequent as Node)
  const alternate = choiceOf(code, node.alternate as Node)
  if (consequent === NOT_STATIC || alternate === NOT_STATIC) return NOT_STATIC
  const test = node.test as Node
  return { test: code.slice(test.start, test.end), consequent, alternate }
}

const isChoice = (value: unknown): value is Choice =>
  typeof value === 'object' && value !== null && 'test' in value && 'consequent' in value

/**
 * A css() call on one object whose top-level values are literal or chosen between literals at runtime: the literal
 * part's class names, and for each chosen property a conditional between its branches' class names. Atomic classes
 * are one per property and value, so the union is what the runtime gives (in another order). Null when any value is
 * neither.
 */
function withChoices(code: string, argument: Node, css: CssFunction): string | null {
  if (argument.type !== 'ObjectExpression') return null
  const fixed: Record<string, StyleValue> = {}
  const chosen: string[] = []
  for (const property of argument.properties as Node[]) {
    if (property.type !== 'Property' || property.kind !== 'init' || property.method || property.computed) return null
    const key = property.key as Node
    const name = key.type === 'Identifier' ? (key.name as string) : staticValue(key)
    if (typeof name !== 'string') return null
    const value = choiceOf(code, property.value as Node)
    if (value === NOT_STATIC) return null
    if (!isChoice(value)) {
      if (value !== undefined) fixed[name] = value
      continue
    }
    const branch = (option: Choice | StyleValue | undefined): string =>
      isChoice(option)
        ? `(${option.test}) ? ${branch(option.consequent)} : ${branch(option.alternate)}`
        : JSON.stringify(option === undefined ? '' : css({ [name]: option }))
    chosen.push(`(${branch(value)})`)
  }
  if (chosen.length === 0) return null
  return `[${JSON.stringify(css(fixed))}, ${chosen.join(', ')}].filter(Boolean).join(' ')`
}

/** Panda's cva(), called at build time with a recipe the sources write literally. */
// biome-ignore lint/suspicious/noExplicitAny: see CssFunction
type CvaFunction = (recipe: any) => (props?: Record<string, unknown>) => string

/**
 * A literal cva() recipe's class names for every choice of its variants (each declared value; false beside true;
 * none where there is no default), keyed as static-recipe.ts looks them up.
 */
export function recipeTable(
  recipe: { variants?: Record<string, Record<string, unknown>>; defaultVariants?: Record<string, unknown> },
  cva: CvaFunction,
): { table: Record<string, string>; keys: string[]; defaults: Record<string, unknown> } {
  const run = cva(recipe)
  const defaults = recipe.defaultVariants ?? {}
  const keys = Object.keys(recipe.variants ?? {})
  const choices = keys.map((key) => {
    const values: unknown[] = Object.keys(recipe.variants?.[key] ?? {}).map((value) =>
      value === 'true' ? true : value === 'false' ? false : value,
    )
    if (values.includes(true) && !values.includes(false)) values.push(false)
    if (!(key in defaults)) values.push(undefined)
    return values
  })
  const table: Record<string, string> = {}
  const visit = (index: number, props: Record<string, unknown>) => {
    if (index === keys.length) {
      table[keys.map((key) => String(props[key] ?? defaults[key])).join('|')] = run(props)
      return
    }
    for (const value of choices[index] ?? []) visit(index + 1, { ...props, [keys[index] as string]: value })
  }
  visit(0, {})
  return { table, keys, defaults }
}

/** The runtime's functions the transform calls at build time, and the module that serves a recipe's table. */
export interface PandaAtBuild {
  css: CssFunction
  cva?: CvaFunction
  /** Import path of src-client/lib/static-recipe.ts (what a literal cva() becomes calls it). */
  recipeModule?: string
}

/**
 * The module's code with each `css(...)` call whose arguments are all literal objects replaced by the class names
 * Panda's runtime gives them, each call on one object whose values are literal or chosen between literals by a
 * conditional replaced by the conditional between their class names, and each literal `cva({...})` by a lookup in
 * its precomputed table (a map when any was); how many css() calls were replaced and kept; null when the module
 * imports neither css nor cva from Panda, or declares the name again.
 */
export function inlineStaticCssCalls(
  code: string,
  program: Node,
  panda: CssFunction | PandaAtBuild,
): { code: string; map: ReturnType<MagicString['generateMap']> | null; replaced: number; kept: number } | null {
  const { css, cva, recipeModule } = typeof panda === 'function' ? { css: panda } : panda
  const cssName = pandaImportName(program, 'css')
  const cvaName = cva && recipeModule ? pandaImportName(program, 'cva') : undefined
  const usable = (name: string | undefined) => name !== undefined && !declaredBesidesImport(program, name)
  if (!usable(cssName) && !usable(cvaName)) return null
  const output = new MagicString(code)
  let replaced = 0
  let kept = 0
  let recipes = 0
  for (const node of descendants(program)) {
    if (node.type !== 'CallExpression' || (node.callee as Node).type !== 'Identifier') continue
    const callee = (node.callee as Node).name
    const argNodes = node.arguments as Node[]
    if (callee === cvaName && usable(cvaName) && cva && argNodes.length === 1) {
      const recipe = staticValue(argNodes[0] as Node)
      if (recipe === NOT_STATIC || typeof recipe !== 'object' || recipe === null || Array.isArray(recipe)) continue
      const { table, keys, defaults } = recipeTable(recipe, cva)
      output.overwrite(
        node.start,
        node.end,
        `__staticRecipe(${JSON.stringify(table)}, ${JSON.stringify(keys)}, ${JSON.stringify(defaults)})`,
      )
      recipes++
      continue
    }
    if (callee !== cssName || !usable(cssName)) continue
    const args = argNodes.map(staticValue)
    const allLiteral =
      args.length > 0 &&
      args.every(
        (value) => value !== NOT_STATIC && typeof value === 'object' && value !== null && !Array.isArray(value),
      )
    const written = allLiteral
      ? JSON.stringify(css(...(args as Record<string, unknown>[])))
      : argNodes.length === 1
        ? withChoices(code, argNodes[0] as Node, css)
        : null
    if (written === null) {
      kept++
      continue
    }
    output.overwrite(node.start, node.end, written)
    replaced++
  }
  if (recipes > 0) output.prepend(`import { staticRecipe as __staticRecipe } from ${JSON.stringify(recipeModule)};\n`)
  if (replaced === 0 && recipes === 0) return { code, map: null, replaced, kept }
  return { code: output.toString(), map: output.generateMap({ hires: true }), replaced, kept }
}

/** The Vite plugin: the app's own modules (not node_modules, not the generated styled-system), after JSX is compiled. */
export function staticCssCalls(cssModule: string, recipeModule: string): Plugin {
  let panda: PandaAtBuild | undefined
  const count = { replaced: 0, kept: 0 }
  return {
    name: 'storefront:static-css-calls',
    enforce: 'post',
    async buildStart() {
      const runtime = (await import(cssModule)) as { css: CssFunction; cva: CvaFunction }
      panda = { css: runtime.css, cva: runtime.cva, recipeModule }
      count.replaced = count.kept = 0
    },
    transform(code, id) {
      if (!panda || !/\b(css|cva)\b/.test(code) || /node_modules|styled-system/.test(id) || !/src-client/.test(id))
        return null
      const result = inlineStaticCssCalls(code, this.parse(code) as unknown as Node, panda)
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
