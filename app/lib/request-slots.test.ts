import { describe, expect, it } from 'vitest'
import { wishLabel } from './request-slots'

describe('wishLabel', () => {
  it('names the days in week order and the times of day', () => {
    expect(wishLabel(['sun', 'sat'], ['morning'])).toBe('土・日曜の午前')
    expect(wishLabel(['wed'], ['evening', 'afternoon'])).toBe('水曜の午後・夕方・夜')
  })
})
