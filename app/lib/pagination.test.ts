import { describe, expect, it } from 'vitest'
import { pageItems } from './pagination'

describe('pageItems', () => {
  it('shows nothing for no pages and one page alone', () => {
    expect(pageItems(1, 0)).toEqual([])
    expect(pageItems(1, 1)).toEqual([1])
  })
  it('shows every page when there are few', () => {
    expect(pageItems(1, 4)).toEqual([1, 2, 3, 4])
    expect(pageItems(3, 5)).toEqual([1, 2, 3, 4, 5])
  })
  it('puts gaps around a window of the current page', () => {
    expect(pageItems(1, 20)).toEqual([1, 2, 'gap', 20])
    expect(pageItems(10, 20)).toEqual([1, 'gap', 9, 10, 11, 'gap', 20])
    expect(pageItems(20, 20)).toEqual([1, 'gap', 19, 20])
  })
  it('never hides a single page behind a gap', () => {
    expect(pageItems(4, 20)).toEqual([1, 2, 3, 4, 5, 'gap', 20])
  })
  it('clamps an out-of-range page', () => {
    expect(pageItems(99, 3)).toEqual([1, 2, 3])
  })
})
