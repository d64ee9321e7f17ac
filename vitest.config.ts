import { defineConfig } from 'vitest/config'

// Unit and integration tests run against PGlite always, and the integration tests against PostgreSQL too
// when TEST_DATABASE_URL is set (as CI sets it). Each test file gets a fresh database from a migrated template.
const common = { testTimeout: 20_000, hookTimeout: 60_000 }
const projects = [
  {
    test: {
      ...common,
      name: 'pglite',
      include: ['tests/unit/**/*.test.ts', 'tests/integration/**/*.test.ts'],
      globalSetup: ['tests/support/setup-pglite.ts'],
    },
  },
]
if (process.env.TEST_DATABASE_URL) {
  projects.push({
    test: {
      ...common,
      name: 'postgres',
      include: ['tests/integration/**/*.test.ts'],
      globalSetup: ['tests/support/setup-postgres.ts'],
    },
  })
}

export default defineConfig({ test: { projects, pool: 'forks' } })
