import { queryOptions } from '@tanstack/react-query'

// The server functions are imported when first called: a first load's data comes with the HTML, so first-load
// scripts carry no server-function code (vite.config.ts, docs/decisions/0008).
const functions = () => import('./teacher.functions')

/** The teacher's page with one page of their classes (1 when omitted). */
export const teacherPageQuery = (id: number, page = 1) =>
  queryOptions({
    queryKey: ['teacher-page', id, page],
    queryFn: () => functions().then((f) => f.getTeacherPage({ data: { id, page } })),
    staleTime: 30_000,
  })

/** The signed-in member's follow state of one teacher (members only; see getFollowState). */
export const followStateQuery = (id: number) =>
  queryOptions({
    queryKey: ['follow-state', id],
    queryFn: () => functions().then((f) => f.getFollowState({ data: id })),
    staleTime: 30_000,
  })
