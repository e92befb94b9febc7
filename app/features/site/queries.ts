import { queryOptions } from '@tanstack/react-query'
import { getSiteConfig } from './site.functions'

export const siteConfigQuery = () =>
  queryOptions({
    queryKey: ['site-config'],
    queryFn: () => getSiteConfig(),
    staleTime: Number.POSITIVE_INFINITY,
  })
