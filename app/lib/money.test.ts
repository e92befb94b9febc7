import { describe, expect, it } from 'vitest'
import { includedTax, luhnValid, receiptNumber, transferDateOf } from './money'

describe('includedTax', () => {
  it('is 10/110 of a tax-included price, rounded down', () => {
    expect(includedTax(1100)).toBe(100)
    expect(includedTax(1500)).toBe(136)
    expect(includedTax(3000)).toBe(272)
    expect(includedTax(1)).toBe(0)
    expect(includedTax(0)).toBe(0)
  })
})

describe('transferDateOf', () => {
  it('is the last day of the following month, across years and leap Februaries', () => {
    expect(transferDateOf('2026-11')).toBe('2026-12-31')
    expect(transferDateOf('2026-12')).toBe('2027-01-31')
    expect(transferDateOf('2028-01')).toBe('2028-02-29')
    expect(transferDateOf('2027-01')).toBe('2027-02-28')
    expect(transferDateOf('2026-03')).toBe('2026-04-30')
  })
})

describe('luhnValid', () => {
  it('accepts the test cards and refuses a changed digit or letters', () => {
    for (const n of ['4242424242424242', '4000000000000002', '4000000000009995', '5555555555554444'])
      expect(luhnValid(n)).toBe(true)
    expect(luhnValid('4242424242424241')).toBe(false)
    expect(luhnValid('42424242424242a2')).toBe(false)
    expect(luhnValid('4242')).toBe(false)
  })
})

describe('receiptNumber', () => {
  it('pads the payment id', () => {
    expect(receiptNumber(123)).toBe('R-000123')
  })
})
