// PostgreSQL text cannot hold a NUL byte (it answers "invalid byte sequence"), and no person types one. The base
// procedure refuses any input carrying one, in a string or a key at any depth, before the procedure's own schema
// runs: one check covers every procedure, present and future. The refusal is a zod error so forms get it per field.
import { TRPCError } from '@trpc/server'
import { ZodRealError } from 'zod'
import { NUL_CHARACTER_MESSAGE } from '../../src-shared/errors.ts'

type Path = (string | number)[]
interface Node {
  value: unknown
  key?: string | number
  parent?: Node
}

function pathOf(node: Node): Path {
  const path: Path = []
  for (let at: Node | undefined = node; at?.parent; at = at.parent) path.unshift(at.key!)
  return path
}

/** The path of the first string (value or key) holding a NUL byte, or null. Iterative: inputs may nest deeply. */
export function findNulPath(input: unknown): Path | null {
  const pending: Node[] = [{ value: input }]
  while (pending.length > 0) {
    const node = pending.pop()!
    const { value } = node
    if (typeof value === 'string') {
      if (value.includes('\u0000')) return pathOf(node)
    } else if (Array.isArray(value)) {
      for (let index = 0; index < value.length; index++) pending.push({ value: value[index], key: index, parent: node })
    } else if (value && typeof value === 'object') {
      for (const [key, item] of Object.entries(value)) {
        if (key.includes('\u0000')) return pathOf(node)
        pending.push({ value: item, key, parent: node })
      }
    }
  }
  return null
}

/** Throws BAD_REQUEST (with the field's path in the zod error) when the raw input holds a NUL byte. */
export function refuseNulInput(input: unknown): void {
  const path = findNulPath(input)
  if (!path) return
  // ZodRealError is the Error-derived ZodError that parse() throws; tRPC keeps only Error causes.
  const cause = new ZodRealError([{ code: 'custom', path, message: NUL_CHARACTER_MESSAGE, input: undefined }])
  throw new TRPCError({ code: 'BAD_REQUEST', message: NUL_CHARACTER_MESSAGE, cause })
}
