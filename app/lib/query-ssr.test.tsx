import { QueryClient, useQueryClient } from '@tanstack/react-query'
import type { AnyRouter } from '@tanstack/react-router'
import type { ReactNode } from 'react'
import { renderToString } from 'react-dom/server'
import { describe, expect, it, vi } from 'vitest'
import { type DehydratedQueries, setupQuerySsr } from './query-ssr'

/** The part of a router the setup touches; `isServer` stands in for the build's constant (undefined under test). */
function fakeRouter(isServer: boolean, options: Record<string, unknown> = {}) {
  return { isServer, options } as unknown as AnyRouter
}

async function filledClient() {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } })
  await client.prefetchQuery({ queryKey: ['class', 1], queryFn: async () => ({ title: 'はじめての将棋' }) })
  await client.prefetchQuery({
    queryKey: ['class', 2],
    queryFn: async () => {
      throw new Error('gone')
    },
  })
  return client
}

function Section({ children }: { children: ReactNode }) {
  return <section>{children}</section>
}

let seenClient: QueryClient | undefined
function Probe() {
  seenClient = useQueryClient()
  return <p>ok</p>
}

describe('setupQuerySsr on the server', () => {
  it('puts every query of the cache beside what the router dehydrates, with no stream left open', async () => {
    const client = await filledClient()
    const router = fakeRouter(true, { dehydrate: async () => ({ site: 'まなびのたね' }) })
    setupQuerySsr(router, client)
    const dehydrated = (await router.options.dehydrate?.()) as { site: string; query: DehydratedQueries }
    expect(dehydrated.site).toBe('まなびのたね')
    // A stream here kept the router's serialisation open until the render ended: no fast path (decision 0048).
    expect(Object.keys(dehydrated.query)).toEqual(['initial'])
    expect(dehydrated.query.initial?.map((q) => [q.queryHash, q.state.status])).toEqual([
      ['["class",1]', 'success'],
      ['["class",2]', 'error'],
    ])
  })

  it('sends no list for an empty cache', async () => {
    const router = fakeRouter(true)
    setupQuerySsr(router, new QueryClient())
    expect(await router.options.dehydrate?.()).toEqual({ query: {} })
  })

  it('wraps the app in the query client, around the router’s own Wrap', () => {
    const client = new QueryClient()
    const router = fakeRouter(true, { Wrap: Section })
    setupQuerySsr(router, client)
    const Wrap = router.options.Wrap as NonNullable<AnyRouter['options']['Wrap']>
    seenClient = undefined
    expect(
      renderToString(
        <Wrap>
          <Probe />
        </Wrap>,
      ),
    ).toBe('<section><p>ok</p></section>')
    expect(seenClient).toBe(client)
  })
})

describe('setupQuerySsr in the browser', () => {
  it('fills the query cache from the page after the router hydrated', async () => {
    const server = fakeRouter(true)
    setupQuerySsr(server, await filledClient())
    const dehydrated = (await server.options.dehydrate?.()) as { query: DehydratedQueries }

    const hydrateRouter = vi.fn(async () => {})
    const browser = fakeRouter(false, { hydrate: hydrateRouter })
    const client = new QueryClient()
    setupQuerySsr(browser, client)
    await browser.options.hydrate?.(dehydrated as never)
    expect(hydrateRouter).toHaveBeenCalledWith(dehydrated)
    expect(client.getQueryData(['class', 1])).toEqual({ title: 'はじめての将棋' })
    expect(client.getQueryState(['class', 2])?.status).toBe('error')
  })

  it('hydrates a page that carries no queries', async () => {
    const browser = fakeRouter(false)
    const client = new QueryClient()
    setupQuerySsr(browser, client)
    await browser.options.hydrate?.({ query: {} } as never)
    expect(client.getQueryCache().getAll()).toEqual([])
  })
})
