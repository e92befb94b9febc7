import { queryOptions } from '@tanstack/react-query'
import type { ClassSearchParams } from './search-params'

// The server functions are imported when a query first runs: a first load's data comes with the HTML, so
// first-load scripts carry no server-function code (vite.config.ts, docs/decisions/0008).

export const classSearchQuery = (params: ClassSearchParams) =>
  queryOptions({
    queryKey: ['class-search', params],
    queryFn: () => import('./class-search.functions').then((m) => m.searchClasses({ data: params })),
    staleTime: 30_000,
  })

export const searchOptionsQuery = () =>
  queryOptions({
    queryKey: ['class-search-options'],
    queryFn: () => import('./class-search.functions').then((m) => m.getSearchOptions()),
    staleTime: 10 * 60_000,
  })
