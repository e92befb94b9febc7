import { queryOptions } from '@tanstack/react-query'
import { getAuthState } from './auth.functions'

/** The auth state; refreshed after every auth operation (invalidate ['auth']). */
export const authStateQuery = () =>
  queryOptions({ queryKey: ['auth'], queryFn: () => getAuthState(), staleTime: 60_000 })
