// Imported first by main.tsx, before any schema exists: zod would otherwise probe `new Function` to compile
// parsers when a schema is created, which the Content-Security-Policy (no 'unsafe-eval') refuses and reports.
// The core module alone: the full zod is not needed on the first page load.
import { config } from 'zod/v4/core'

config({ jitless: true })
