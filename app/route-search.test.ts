import { describe, expect, it } from 'vitest'

// The router merges what a route's validateSearch returns over the raw search of the address: a key it reads but
// leaves out of its answer reaches loaderDeps as typed (?page=abc was a 500 on the operator pages). Each route
// here is asked with a value no page means under every key it reads; each key it read must be in its answer
// (undefined when the value was bad).
const routes = import.meta.glob<{ Route: { options: { validateSearch?: unknown } } }>('./routes/**/*.tsx')

describe('validateSearch', () => {
  it('answers every key it reads, so a bad value never passes through from the address', async () => {
    const checked: string[] = []
    const offenders: string[] = []
    for (const [file, load] of Object.entries(routes)) {
      const validate = (await load()).Route?.options.validateSearch
      if (typeof validate !== 'function') continue
      const read = new Set<string>()
      const input = new Proxy({} as Record<string, unknown>, {
        get: (_, key) => {
          if (typeof key === 'string') read.add(key)
          return 'x\u0000y'
        },
        has: () => true,
      })
      const out = validate(input) as Record<string, unknown>
      for (const key of read) if (!(key in out)) offenders.push(`${file}: ${key}`)
      checked.push(file)
    }
    expect(offenders).toEqual([])
    expect(checked.length).toBeGreaterThanOrEqual(15)
    // Loading every route transforms most of the app: beside the other unit files on two cores that has
    // taken more than the default 5 s.
  }, 60_000)
})
