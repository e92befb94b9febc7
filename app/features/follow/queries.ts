import { queryOptions } from '@tanstack/react-query'
import { getFollowPage } from './follow.functions'

export const followPageQuery = () => queryOptions({ queryKey: ['follow'], queryFn: () => getFollowPage() })
