import { queryOptions } from '@tanstack/react-query'
import { getSearchOptions, searchClasses } from './class-search.functions'
import type { ClassSearchParams } from './search-params'

export const classSearchQuery = (params: ClassSearchParams) =>
  queryOptions({
    queryKey: ['class-search', params],
    queryFn: () => searchClasses({ data: params }),
    staleTime: 30_000,
  })

export const searchOptionsQuery = () =>
  queryOptions({
    queryKey: ['class-search-options'],
    queryFn: () => getSearchOptions(),
    staleTime: 10 * 60_000,
  })
