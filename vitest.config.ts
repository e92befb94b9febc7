import { defineConfig } from 'vitest/config'

// Node 20 lacks Map.groupBy, which Vitest 5's reporter uses to print some failures (it then crashes and hides
// them). The config runs in Vitest's main process, so the polyfill reaches the reporter.
if (typeof (Map as { groupBy?: unknown }).groupBy !== 'function') {
  Object.defineProperty(Map, 'groupBy', {
    value<K, T>(items: Iterable<T>, key: (item: T, index: number) => K) {
      const map = new Map<K, T[]>()
      let i = 0
      for (const item of items) {
        const k = key(item, i++)
        const list = map.get(k)
        if (list) list.push(item)
        else map.set(k, [item])
      }
      return map
    },
  })
}

// Tests run without the Start plugin: unit tests beside the code, integration tests against a real database.
export default defineConfig({
  resolve: { tsconfigPaths: true },
  test: {
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: ['app/**/*.test.{ts,tsx}', 'scripts/**/*.test.ts'],
          environment: 'node',
        },
      },
      {
        extends: true,
        test: {
          name: 'integration',
          include: ['tests/integration/**/*.test.ts'],
          // One migrated, seeded template database per run; each test file clones it.
          globalSetup: ['tests/integration/support/global-setup.ts'],
          environment: 'node',
          testTimeout: 60_000,
          hookTimeout: 120_000,
        },
      },
    ],
  },
})
