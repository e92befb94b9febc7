import { queryOptions } from '@tanstack/react-query'

// The server functions are imported when a query first runs: a first load's data comes with the HTML, so
// first-load scripts carry no server-function code (vite.config.ts, docs/decisions/0008).

export const homeQuery = () =>
  queryOptions({
    queryKey: ['home'],
    queryFn: () => import('./home.functions').then((m) => m.getHomeData()),
    staleTime: 60_000,
  })
