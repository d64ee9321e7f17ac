// Reading import statements and finding cycles between folders, for tests/unit/architecture.test.ts.

/** folder → (imported folder → the first file that imports it, to name in a failure) */
export type FolderGraph = Map<string, Map<string, string>>

/** Every module specifier a source file imports or re-exports (static and dynamic). */
export function importsOf(source: string): string[] {
  const specs: string[] = []
  const pattern = /(?:\bfrom\s*|\bimport\s*\(?\s*)['"]([^'"]+)['"]/g
  for (const match of source.matchAll(pattern)) specs.push(match[1] as string)
  return specs
}

/**
 * The groups of folders that import each other in a cycle (strongly connected components of more than one folder,
 * Tarjan's algorithm), each named with the imports inside it: "http → trpc (http/deps.ts)".
 */
export function findFolderCycles(graph: FolderGraph): string[][] {
  const index = new Map<string, number>()
  const low = new Map<string, number>()
  const stack: string[] = []
  const onStack = new Set<string>()
  const groups: string[][] = []
  const connect = (folder: string) => {
    index.set(folder, index.size)
    low.set(folder, index.get(folder) as number)
    stack.push(folder)
    onStack.add(folder)
    for (const next of graph.get(folder)?.keys() ?? []) {
      if (!index.has(next)) {
        connect(next)
        low.set(folder, Math.min(low.get(folder) as number, low.get(next) as number))
      } else if (onStack.has(next)) {
        low.set(folder, Math.min(low.get(folder) as number, index.get(next) as number))
      }
    }
    if (low.get(folder) !== index.get(folder)) return
    const group: string[] = []
    let member: string
    do {
      member = stack.pop() as string
      onStack.delete(member)
      group.push(member)
    } while (member !== folder)
    if (group.length > 1) groups.push(group.sort())
  }
  for (const folder of graph.keys()) if (!index.has(folder)) connect(folder)
  return groups.map((group) =>
    group.flatMap((from) =>
      [...(graph.get(from) ?? [])]
        .filter(([to]) => group.includes(to))
        .map(([to, file]) => `${from} → ${to} (${file})`),
    ),
  )
}

/**
 * The packages a module loads when it is imported, and what it loads in turn: its static value imports followed
 * through relative paths (`import type` and `import()` load nothing then). Each package is named with the first file
 * found importing it.
 */
export function packagesLoadedBy(entry: string, read: (file: string) => string): Map<string, string> {
  const packages = new Map<string, string>()
  const seen = new Set<string>()
  const statement = /^(?:import|export)\s+(?!type\b)(?:[^'";]*?\bfrom\s*)?['"]([^'"]+)['"]/gm
  const visit = (file: string) => {
    if (seen.has(file)) return
    seen.add(file)
    for (const match of read(file).matchAll(statement)) {
      const specifier = match[1] as string
      if (specifier.startsWith('.')) {
        visit(new URL(specifier, `file://${file}`).pathname)
      } else if (!specifier.startsWith('node:')) {
        const name = specifier
          .split('/')
          .slice(0, specifier.startsWith('@') ? 2 : 1)
          .join('/')
        if (!packages.has(name)) packages.set(name, file)
      }
    }
  }
  visit(entry)
  return packages
}
