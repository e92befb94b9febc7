import { queryOptions } from '@tanstack/react-query'
import { getSessions } from './sessions.functions'

export const sessionsQuery = () => queryOptions({ queryKey: ['sessions'], queryFn: () => getSessions() })
