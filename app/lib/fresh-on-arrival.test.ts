import { dehydrate, QueryClient } from '@tanstack/query-core'
import { describe, expect, it } from 'vitest'
import { cameFromServer, freshOnArrival } from './fresh-on-arrival'

describe('freshOnArrival', () => {
  it('stamps every query with data as updated on arrival, in the shape the server dehydrates', async () => {
    const server = new QueryClient()
    await server.prefetchQuery({ queryKey: ['a'], queryFn: () => 1 })
    await server.prefetchQuery({ queryKey: ['b'], queryFn: () => 2 })
    const { queries } = dehydrate(server)
    for (const q of queries) q.state.dataUpdatedAt = 1_000
    const dehydrated = { query: { initial: queries } }
    freshOnArrival(dehydrated, 90_000)
    expect(dehydrated.query.initial.map((q) => q.state.dataUpdatedAt)).toEqual([90_000, 90_000])
  })

  it('leaves a query without data, or whose last fetch failed, alone, and takes a page without queries', () => {
    const dehydrated = {
      query: {
        initial: [
          { state: { dataUpdatedAt: 0, status: 'pending' } },
          { state: { dataUpdatedAt: 1_000, status: 'error' } },
        ],
      },
    }
    freshOnArrival(dehydrated, 90_000)
    expect(dehydrated.query.initial.map((q) => q.state.dataUpdatedAt)).toEqual([0, 1_000])
    expect(() => freshOnArrival(undefined, 1)).not.toThrow()
    expect(() => freshOnArrival({}, 1)).not.toThrow()
  })
})

describe('cameFromServer', () => {
  it('is true for a document the server sent or confirmed (a 304 has bytes too)', () => {
    expect(cameFromServer({ type: 'navigate', transferSize: 30_000 })).toBe(true)
    expect(cameFromServer({ type: 'reload', transferSize: 300 })).toBe(true)
  })

  it("is false for the browser's own copy (Back and Forward, a restored tab), and when unknown", () => {
    expect(cameFromServer({ type: 'back_forward', transferSize: 30_000 })).toBe(false)
    expect(cameFromServer({ type: 'navigate', transferSize: 0 })).toBe(false)
    expect(cameFromServer(undefined)).toBe(false)
  })
})
