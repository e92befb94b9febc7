import { describe, expect, it } from 'vitest'
import { fasterSpreadProps, lowerObjectSpread, lowerServerObjectSpread } from './lower-object-spread'

/** Runs lowered code as a function body: what `result` holds at its end. */
async function run(source: string) {
  const lowered = await lowerObjectSpread(source, '/x/node_modules/@tanstack/query-core/build/modern/x.js')
  expect(lowered).not.toBeNull()
  const code = lowered?.code ?? ''
  expect(code).not.toMatch(/[{,]\s*\.\.\.\w+\s*[,}]/)
  return { code, result: new Function(`${code}; return result`)() }
}

describe('lowerObjectSpread', () => {
  it('lowers a spread with more properties to assignments, with the same result', async () => {
    const { code, result } = await run(
      "const a = { x: 1, y: 2 }; const b = { y: 3 }; const result = { ...a, ...b, z: 4, x: 'last' }",
    )
    expect(code).toContain('__spreadValues')
    expect(result).toEqual({ x: 'last', y: 3, z: 4 })
    expect(Object.keys(result)).toEqual(['x', 'y', 'z'])
  })

  it('keeps what spread means: getters read once, symbols copied, __proto__ an own key, not the prototype', async () => {
    const { result } = await run(`
      let reads = 0
      const tag = Symbol.for('tag')
      const source = { get g() { reads++; return 'g' }, [tag]: 't' }
      const evil = JSON.parse('{"__proto__": {"polluted": true}}')
      const copy = { ...source, ...evil, after: 1 }
      const result = { copy, reads, polluted: copy.polluted, ownProto: Object.hasOwn(copy, '__proto__'),
        tag: copy[tag], descriptor: Object.getOwnPropertyDescriptor(copy, 'g') }
    `)
    expect(result.reads).toBe(1)
    expect(result.tag).toBe('t')
    expect(result.polluted).toBeUndefined()
    expect(result.ownProto).toBe(true)
    expect(result.descriptor).toMatchObject({ value: 'g', enumerable: true, writable: true })
    expect(Object.getPrototypeOf(result.copy)).toBe(Object.prototype)
  })

  it('copies the properties written after a spread as native spread does, through the faster helper', async () => {
    // Each property's descriptor, in key order: what native spread gives is the reference.
    const source = `
      const tag = Symbol('tag')
      const base = { x: 1, toString: 'own' }
      let set
      const made = { ...base, x: 2, get g() { return 'g' }, set s(v) { set = v }, ['__proto__']: 'own', [tag]: 't', 7: 'n' }
      made.s = 'called'
      const shape = (d) => ({ ...d, get: typeof d.get, set: typeof d.set })
      const result = { keys: Reflect.ownKeys(made).map(String), set, proto: Object.getPrototypeOf(made) === Object.prototype,
        descriptors: Reflect.ownKeys(made).map((k) => shape(Object.getOwnPropertyDescriptor(made, k))) }
    `
    const { code, result } = await run(source)
    expect(code).toContain('__spreadProps')
    expect(code).toContain('Object.getOwnPropertyNames(b)')
    const native = new Function(`${source}; return result`)()
    expect(result.keys).toEqual(native.keys)
    expect(result.descriptors).toEqual(native.descriptors)
    expect(result.set).toBe('called')
    expect(result.proto).toBe(true)
  })

  it('stops the build when esbuild writes its __spreadProps helper differently', () => {
    expect(() => fasterSpreadProps('var __spreadProps = (a, b) => other(a, b);', '/x.js')).toThrow(
      /FASTER_SPREAD_PROPS/,
    )
    expect(fasterSpreadProps('const a = 1', '/x.js')).toBe('const a = 1')
  })

  it('lowers object rest in destructuring', async () => {
    const { code, result } = await run('const { a, ...rest } = { a: 1, b: 2, c: 3 }; const result = rest')
    expect(code).toContain('__objRest')
    expect(result).toEqual({ b: 2, c: 3 })
  })

  it('leaves array and call spread, modules without spread and files that are not JavaScript alone', async () => {
    const { code, result } = await run(
      'const f = (...xs) => [...xs, ...xs]; const result = { n: f(...[1, 2]) }',
    )
    expect(code).toContain('...xs')
    expect(result).toEqual({ n: [1, 2, 1, 2] })
    expect(await lowerObjectSpread('const a = 1', '/app/x.ts')).toBeNull()
    expect(await lowerObjectSpread('.a{--x:1}/* ... */', '/app/styles.css')).toBeNull()
  })
})

describe('lowerServerObjectSpread', () => {
  it('applies to the server build only, not the browser’s', () => {
    const plugin = lowerServerObjectSpread()
    const applies = plugin.applyToEnvironment as (environment: { name: string }) => boolean
    expect(plugin.apply).toBe('build')
    expect(applies({ name: 'ssr' })).toBe(true)
    expect(applies({ name: 'client' })).toBe(false)
    // And it bundles the router and query packages into that build, so that their spreads are lowered too.
    const config = (plugin.config as () => { ssr: { noExternal: string[] } })()
    expect(config.ssr.noExternal).toEqual(
      expect.arrayContaining(['@tanstack/react-router', '@tanstack/router-core', '@tanstack/query-core']),
    )
  })
})
