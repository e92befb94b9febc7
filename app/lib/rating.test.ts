import { describe, expect, it } from 'vitest'
import { ratingSummary, starsText } from './rating'

/** class_works.rating_halves as migration 0025 computes it in SQL (integer division rounds down). */
const sqlHalves = (count: number, sum: number) => Math.trunc(Math.trunc((sum * 20 + count) / (count * 2)) / 5)

describe('ratingSummary', () => {
  it('one decimal, halves rounded up: 79 over 20 reviews shows ★4.0, 89 over 20 ★4.5, 78 over 20 ★3.9', () => {
    expect(ratingSummary(20, 79)).toEqual({ count: 20, average: 4 })
    expect(ratingSummary(20, 89)).toEqual({ count: 20, average: 4.5 })
    expect(ratingSummary(20, 78)).toEqual({ count: 20, average: 3.9 })
    expect(ratingSummary(20, 23)).toEqual({ count: 20, average: 1.2 })
    expect(ratingSummary(3, 14)).toEqual({ count: 3, average: 4.7 })
    expect(ratingSummary(0, 0)).toEqual({ count: 0, average: null })
  })

  it('agrees with the search column: a card shows at least ★N (halves) exactly when rating_halves ≥ 2N', () => {
    for (let count = 1; count <= 400; count++)
      for (let sum = count; sum <= 5 * count; sum++) {
        const shown = ratingSummary(count, sum).average!
        const halves = sqlHalves(count, sum)
        for (let n = 2; n <= 10; n++) {
          if (shown >= n / 2 !== halves >= n) expect({ count, sum, shown, halves, n }).toBe('in agreement')
        }
      }
  })
})

describe('starsText', () => {
  it('whole stars of the rounded average', () => {
    expect(starsText(4.5)).toBe('★★★★★')
    expect(starsText(4.4)).toBe('★★★★☆')
    expect(starsText(0)).toBe('☆☆☆☆☆')
  })
})
