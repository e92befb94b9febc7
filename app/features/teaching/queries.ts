import { queryOptions } from '@tanstack/react-query'
import { getTeachingState } from './teaching.functions'

export const teachingStateQuery = () =>
  queryOptions({ queryKey: ['teaching'], queryFn: () => getTeachingState() })
