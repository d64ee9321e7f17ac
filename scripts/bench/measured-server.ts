// How the build benches (compare-builds.ts, instructions.ts) start a built app: `npm run serve`'s Node flags, on an
// existing database (no seeding, no job worker), on loopback.

/** The Node arguments of `npm run serve`, for the build whose root is the working directory. */
export const SERVE_ARGS = ['--max-semi-space-size=16', '--heap-growing-percent=50', 'dist/server/src-server/main.js']

export function measuredServerEnv(databaseUrl: string, port: number): NodeJS.ProcessEnv {
  return {
    ...process.env,
    DATABASE_URL: databaseUrl,
    PORT: String(port),
    HOST: '127.0.0.1',
    NODE_ENV: 'production',
    WORKER: 'off',
    SEED_ON_EMPTY: 'false',
  }
}
