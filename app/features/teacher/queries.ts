import { queryOptions } from '@tanstack/react-query'
import { getFollowState, getTeacherPage } from './teacher.functions'

export const teacherPageQuery = (id: number) =>
  queryOptions({
    queryKey: ['teacher-page', id],
    queryFn: () => getTeacherPage({ data: id }),
    staleTime: 30_000,
  })

/** The signed-in member's follow state of one teacher (members only; see getFollowState). */
export const followStateQuery = (id: number) =>
  queryOptions({
    queryKey: ['follow-state', id],
    queryFn: () => getFollowState({ data: id }),
    staleTime: 30_000,
  })
