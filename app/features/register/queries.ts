import { queryOptions } from '@tanstack/react-query'
import { getRegisterOptions } from './register.functions'

export const registerOptionsQuery = () =>
  queryOptions({
    queryKey: ['register-options'],
    queryFn: () => getRegisterOptions(),
    staleTime: 10 * 60_000,
  })
