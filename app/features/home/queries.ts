import { queryOptions } from '@tanstack/react-query'
import { getHomeData } from './home.functions'

export const homeQuery = () =>
  queryOptions({ queryKey: ['home'], queryFn: () => getHomeData(), staleTime: 60_000 })
