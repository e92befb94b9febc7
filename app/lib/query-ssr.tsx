import { dehydrateQuery, hydrate, type QueryClient, QueryClientProvider } from '@tanstack/react-query'
import type { AnyRouter } from '@tanstack/react-router'
import { isServer } from '@tanstack/router-core/isServer'
import { Fragment, type ReactNode } from 'react'

/** What the page carries of the query cache: the queries the route's loaders filled, as `dehydrate` gives them. */
export interface DehydratedQueries {
  initial?: ReturnType<typeof dehydrateQuery>[]
}

/**
 * Hands the query cache a page's loaders filled to the browser inside the page (docs/decisions/0048), in the shape
 * `@tanstack/react-router-ssr-query` used (`dehydratedData.query.initial`, which the boot script reads too), but
 * without its stream of queries started while rendering. That stream stays open until the render ends, so the
 * router could never take its fast path for a page rendered to one string (0032): every page was encoded to bytes,
 * scanned and decoded again. A page here renders to one string and cannot wait for a query started in render (such
 * a part is left to the browser, which fetches it), so the stream never carried anything.
 */
export function setupQuerySsr(router: AnyRouter, queryClient: QueryClient): void {
  const Wrap = router.options.Wrap ?? Fragment
  router.options.Wrap = ({ children }: { children: ReactNode }) => (
    <QueryClientProvider client={queryClient}>
      <Wrap>{children}</Wrap>
    </QueryClientProvider>
  )
  if (isServer ?? router.isServer) {
    const dehydrateRouter = router.options.dehydrate
    router.options.dehydrate = async () => {
      const base = await dehydrateRouter?.()
      // Every query, a failed or pending one too, as the integration sent them (a pending one's promise is
      // serialised as it settles, which only then leaves the fast path).
      const initial = queryClient
        .getQueryCache()
        .getAll()
        .map((query) => dehydrateQuery(query))
      return { ...base, query: (initial.length > 0 ? { initial } : {}) satisfies DehydratedQueries }
    }
    return
  }
  const hydrateRouter = router.options.hydrate
  router.options.hydrate = async (dehydrated: { query?: DehydratedQueries }) => {
    await hydrateRouter?.(dehydrated)
    const initial = dehydrated.query?.initial
    if (initial) hydrate(queryClient, { queries: initial })
  }
}
