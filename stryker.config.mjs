// StrykerJS settings shared by every module; scripts/mutation.ts runs one module at a time and passes the files
// to mutate (--mutate) and the test files that exercise them (STRYKER_TESTS, read by vitest.stryker.config.ts).
// Equivalent mutants left alive are listed, with why, in docs/mutation.md.
const moduleName = process.env.STRYKER_MODULE ?? 'all'
// The second pass of scripts/mutation.ts: import-time (static) mutants that the Vitest runner reported Survived are
// run again by the command runner, one fresh `vitest run` process per mutant, so the module loads with the mutant on.
const staticPass = process.env.STRYKER_STATIC_PASS === '1'

/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
  testRunner: 'vitest',
  plugins: ['@stryker-mutator/vitest-runner'],
  vitest: { configFile: 'vitest.stryker.config.ts', related: false },
  // Each mutant reruns only the tests that executed its code in the first (dry) run.
  coverageAnalysis: 'perTest',
  // The project's TypeScript (7, native) has no JavaScript API for Stryker's tsconfig rewriting, which only
  // matters for `extends`/`references` outside the sandbox (tsconfig.json has neither): point it at no file.
  tsconfigFile: 'tsconfig.stryker-none.json',
  // The machine is shared: two workers at most (STRYKER_CONCURRENCY=1 for one).
  concurrency: Number(process.env.STRYKER_CONCURRENCY ?? 2),
  // Integration tests start servers and databases; give a mutant time before calling it an endless loop.
  timeoutMS: 30_000,
  // The first (dry) run does the module's whole test list once, on a loaded machine.
  dryRunTimeoutMinutes: 30,
  timeoutFactor: 2,
  // STRYKER_DISABLE_BAIL=1 runs every covering test of a mutant (slower), so the report lists all the tests that kill
  // it: scripts/mutation.ts then also scores the suite without some test files (MUTATION_BASELINE_EXCLUDE).
  disableBail: process.env.STRYKER_DISABLE_BAIL === '1',
  reporters: ['html', 'json', 'clear-text', 'progress'],
  htmlReporter: { fileName: `reports/mutation/${moduleName}.html` },
  jsonReporter: { fileName: `reports/mutation/${moduleName}.json` },
  clearTextReporter: { allowEmojis: false, logTests: false, reportMutants: true, reportScoreTable: true },
  // A rerun reuses the results of mutants whose code and covering tests did not change (a new test reruns the
  // survivors it covers), so a module is measured again in minutes after tests are added.
  incremental: !staticPass,
  ...(staticPass
    ? {
        testRunner: 'command',
        commandRunner: { command: 'npx vitest run --config vitest.stryker.config.ts --bail 1' },
        coverageAnalysis: 'off',
      }
    : {}),
  incrementalFile: `reports/mutation/${moduleName}.incremental.json`,
  tempDirName: `.stryker-tmp/${moduleName}`,
  cleanTempDir: 'always',
  // Only what the tests need in the sandbox (not builds, reports, browsers' output).
  ignorePatterns: [
    '/.stryker-tmp',
    '/dist',
    '/data',
    '/reports',
    '/test-results',
    '/playwright-report',
    '/screenshots',
    '/lighthouse',
    '/.e2e-data',
    '/tests/e2e',
    '/tests/screenshots',
  ],
  thresholds: { high: 90, low: 80, break: null },
}
