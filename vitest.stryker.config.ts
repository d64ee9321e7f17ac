import { defineConfig } from 'vitest/config'

// Vitest as StrykerJS runs it (scripts/mutation.ts): PGlite only, never PostgreSQL, and only the test files the
// module under mutation lists (STRYKER_TESTS, comma separated), so a mutant reruns a few files, not the suite.
const include = process.env.STRYKER_TESTS?.split(',').filter(Boolean) ?? [
  'tests/unit/**/*.test.ts',
  'tests/integration/**/*.test.ts',
]

export default defineConfig({
  test: {
    name: 'pglite',
    include,
    globalSetup: ['tests/support/setup-pglite.ts'],
    testTimeout: 20_000,
    hookTimeout: 60_000,
    pool: 'forks',
  },
})
