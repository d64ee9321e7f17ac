// Imported first by main.tsx, before any schema exists: zod would otherwise probe `new Function` to compile
// parsers when a schema is created, which the Content-Security-Policy (no 'unsafe-eval') refuses and reports.
import { z } from 'zod'

z.config({ jitless: true })
