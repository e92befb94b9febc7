import { describe, expect, it } from 'vitest'
import { idInput, idPageInput, laterPage, parseId, toggleInput } from './ids'

describe('parseId', () => {
  it('accepts positive integers as numbers or digit strings', () => {
    expect(parseId('1')).toBe(1)
    expect(parseId('999999999')).toBe(999_999_999)
    expect(parseId(42)).toBe(42)
  })
  it('rejects everything else', () => {
    for (const bad of [
      '0',
      '-1',
      '01',
      '1.5',
      '1e3',
      'abc',
      '',
      ' 1',
      '1000000000',
      0,
      -3,
      1.5,
      1e12,
      null,
      undefined,
      {},
    ]) {
      expect(parseId(bad), String(bad)).toBeUndefined()
    }
  })
})

describe('laterPage', () => {
  it('is a page after the first, up to 1000, as the router parsed it or as typed', () => {
    expect([2, '2', 1000, '1000'].map(laterPage)).toEqual([2, 2, 1000, 1000])
  })

  it('is undefined for the first page and for anything an address can hold that is not a page', () => {
    for (const bad of [
      1,
      '1',
      0,
      '0',
      -2,
      1001,
      '1001',
      2.5,
      '2.5',
      'abc',
      '',
      '2abc',
      '1e3',
      null,
      undefined,
      [2],
      {},
    ])
      expect(laterPage(bad), JSON.stringify(bad)).toBeUndefined()
  })
})

describe('server function validators', () => {
  it('idInput returns the id or throws', () => {
    expect(idInput(7)).toBe(7)
    expect(() => idInput('x')).toThrow()
  })
  it('toggleInput needs an id and a boolean', () => {
    expect(toggleInput({ id: 3, on: true })).toEqual({ id: 3, on: true })
    expect(() => toggleInput({ id: 3, on: 'yes' })).toThrow()
    expect(() => toggleInput({ id: 0, on: false })).toThrow()
    expect(() => toggleInput(undefined)).toThrow()
  })
})

describe('idPageInput', () => {
  it('takes an id and a page from 1 to 1000, page 1 when missing', () => {
    expect(idPageInput({ id: 7 })).toEqual({ id: 7, page: 1 })
    expect(idPageInput({ id: '7', page: 1000 })).toEqual({ id: 7, page: 1000 })
  })
  it('refuses a bad page or id with a Japanese message', () => {
    for (const page of [0, -1, 1.5, 1001, '2', null, Number.NaN])
      expect(() => idPageInput({ id: 7, page }), String(page)).toThrow('ページ番号が正しくありません')
    expect(() => idPageInput({ id: 'x', page: 2 })).toThrow('IDが正しくありません')
    expect(() => idPageInput(undefined)).toThrow()
  })
})
