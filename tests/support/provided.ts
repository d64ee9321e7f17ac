// What the global setups hand to test files (vitest provide/inject).
export type TestDbConfig =
  | { kind: 'pglite'; templateDumpPath: string }
  | { kind: 'postgres'; adminUrl: string; templateName: string }

declare module 'vitest' {
  export interface ProvidedContext {
    testDb: TestDbConfig
  }
}
