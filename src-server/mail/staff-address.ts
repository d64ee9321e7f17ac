// Where mail for the shop's staff goes when no staff member is named (STAFF_EMAIL).
import { envSchema } from '../kernel/env.ts'

export function staffEmail(source: NodeJS.ProcessEnv = process.env): string {
  return envSchema.shape.STAFF_EMAIL.parse(source.STAFF_EMAIL || undefined)
}
