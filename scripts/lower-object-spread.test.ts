import { describe, expect, it } from 'vitest'
import { lowerObjectSpread, lowerServerObjectSpread } from './lower-object-spread'

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
