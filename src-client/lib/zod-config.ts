// Imported first by main.tsx, before any schema exists: zod would otherwise probe `new Function` to compile
// parsers, which the Content-Security-Policy (no 'unsafe-eval') refuses and reports. The first page carries no
// zod at all (route search params are checked without it), so the setting goes where zod's `config()` keeps it,
// the `__zod_globalConfig` global it reads when it loads later; tests/unit/zod-config.test.ts checks zod sees it.
const scope = globalThis as { __zod_globalConfig?: Record<string, unknown> }
// The same object zod keeps (had it loaded first), so the setting holds either way.
scope.__zod_globalConfig ??= {}
scope.__zod_globalConfig.jitless = true

export {}
