import { describe, expect, it } from 'vitest'
import { describeResultCount } from './result-count'

describe('describeResultCount', () => {
  it('gives an exact count and the range of the page', () => {
    expect(describeResultCount({ total: 45, capped: false, page: 3, perPage: 20, shown: 5 })).toEqual({
      count: '45',
      unit: '件のクラス',
      range: '（41〜45件を表示）',
    })
  })

  it('says 以上 when the count stopped at the cap, and still gives the range of a page past it', () => {
    expect(describeResultCount({ total: 1000, capped: true, page: 1, perPage: 20, shown: 20 })).toEqual({
      count: '1,000',
      unit: '件以上のクラス',
      range: '（1〜20件を表示）',
    })
    expect(describeResultCount({ total: 1000, capped: true, page: 60, perPage: 20, shown: 20 }).range).toBe(
      '（1,181〜1,200件を表示）',
    )
  })

  it('shows no range when the page is empty', () => {
    expect(describeResultCount({ total: 0, capped: false, page: 1, perPage: 20, shown: 0 }).range).toBeNull()
    expect(describeResultCount({ total: 25, capped: false, page: 3, perPage: 20, shown: 0 }).range).toBeNull()
  })
})
