import { queryOptions } from '@tanstack/react-query'

// The server functions are imported when a query first runs: a first load's data comes with the HTML, so
// first-load scripts carry no server-function code (vite.config.ts, docs/decisions/0008).

export const siteConfigQuery = () =>
  queryOptions({
    queryKey: ['site-config'],
    queryFn: () => import('./site.functions').then((m) => m.getSiteConfig()),
    staleTime: Number.POSITIVE_INFINITY,
  })
