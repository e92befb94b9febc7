import { QueryClient } from '@tanstack/react-query'
import { createRouter } from '@tanstack/react-router'
import { createIsomorphicFn, getGlobalStartContext } from '@tanstack/react-start'
import { setNonce } from 'get-nonce'
import { ErrorPage } from './components/shell/lazy-error-page'
import { setupQuerySsr } from './lib/query-ssr'
import { retryTransientOnce } from './lib/retry'
import { routeTree } from './routeTree.gen'

/**
 * The CSP nonce of this response (app/start.ts puts it in the request context); the router writes it on every
 * script and style tag and into a csp-nonce meta, which the browser side reads back.
 */
const cspNonce = createIsomorphicFn()
  .server(() => (getGlobalStartContext() as { nonce?: string } | undefined)?.nonce)
  .client(() => {
    // Radix's scroll lock (react-remove-scroll) injects a <style>: it must carry the page's nonce too.
    const nonce = document.querySelector('meta[property="csp-nonce"]')?.getAttribute('content') ?? undefined
    if (nonce) setNonce(nonce)
    return nonce
  })

export function getRouter() {
  const queryClient = new QueryClient({
    defaultOptions: { queries: { staleTime: 30_000, retry: retryTransientOnce } },
  })
  const router = createRouter({
    routeTree,
    context: { queryClient },
    defaultPreload: 'intent',
    defaultPreloadStaleTime: 0,
    scrollRestoration: true,
    // Every not-found renders the root's error page (simple layout), whichever route threw it.
    notFoundMode: 'root',
    defaultErrorComponent: ErrorPage,
    ssr: { nonce: cspNonce() },
  })
  setupQuerySsr(router, queryClient)
  return router
}

declare module '@tanstack/react-router' {
  interface Register {
    router: ReturnType<typeof getRouter>
  }
}
