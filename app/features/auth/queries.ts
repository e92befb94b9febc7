import { queryOptions } from '@tanstack/react-query'

// The server functions are imported when a query first runs: a first load's data comes with the HTML, so
// first-load scripts carry no server-function code (vite.config.ts, docs/decisions/0008).

/** The auth state; refreshed after every auth operation (invalidate ['auth']). */
export const authStateQuery = () =>
  queryOptions({
    queryKey: ['auth'],
    queryFn: () => import('./auth.functions').then((m) => m.getAuthState()),
    staleTime: 60_000,
  })
