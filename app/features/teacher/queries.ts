import { queryOptions } from '@tanstack/react-query'
import { getFollowState, getTeacherPage } from './teacher.functions'

/** The teacher's page with one page of their classes (1 when omitted). */
export const teacherPageQuery = (id: number, page = 1) =>
  queryOptions({
    queryKey: ['teacher-page', id, page],
    queryFn: () => getTeacherPage({ data: { id, page } }),
    staleTime: 30_000,
  })

/** The signed-in member's follow state of one teacher (members only; see getFollowState). */
export const followStateQuery = (id: number) =>
  queryOptions({
    queryKey: ['follow-state', id],
    queryFn: () => getFollowState({ data: id }),
    staleTime: 30_000,
  })
