import { describe, expect, it } from 'vitest'
import { rowsOf } from './rows'

describe('rowsOf', () => {
  it('reads the rows of both drivers', () => {
    const rows = [{ id: 1 }, { id: 2 }]
    // postgres-js: an array (with extra properties such as `count`).
    const array = Object.assign([...rows], { count: 2 })
    expect(rowsOf<{ id: number }>(array)).toBe(array)
    // PGlite: { rows, fields, affectedRows }.
    expect(rowsOf<{ id: number }>({ rows, fields: [], affectedRows: 0 })).toBe(rows)
    expect(rowsOf({ rows: [] })).toEqual([])
  })

  it('refuses anything else rather than answer no rows', () => {
    for (const bad of [undefined, null, 1, 'rows', {}, { rows: 'x' }])
      expect(() => rowsOf(bad), String(bad)).toThrow(TypeError)
  })
})
