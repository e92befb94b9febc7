/** The identity issuer and API audience the integration tests sign tokens for (and seed demo users under). */
export const TEST_ISSUER = 'https://test.manabi.example/idp'
export const TEST_AUDIENCE = 'https://test.manabi.example/v1'

/** What the global setup hands to every test file (vitest provide/inject). */
export type TestDbTemplate =
  | { kind: 'pglite'; dumpPath: string; now: string }
  | { kind: 'postgres'; template: string; now: string }

declare module 'vitest' {
  export interface ProvidedContext {
    manabiTestDb: TestDbTemplate | undefined
  }
}
