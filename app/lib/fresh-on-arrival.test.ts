import { dehydrate, QueryClient } from '@tanstack/query-core'
import { describe, expect, it } from 'vitest'
import { freshOnArrival } from './fresh-on-arrival'

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

  it('leaves a query that holds no data alone, and takes a page without queries', () => {
    const dehydrated = { query: { initial: [{ state: { dataUpdatedAt: 0 } }] } }
    freshOnArrival(dehydrated, 90_000)
    expect(dehydrated.query.initial[0]!.state.dataUpdatedAt).toBe(0)
    expect(() => freshOnArrival(undefined, 1)).not.toThrow()
    expect(() => freshOnArrival({}, 1)).not.toThrow()
  })
})
