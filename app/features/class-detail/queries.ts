import { queryOptions } from '@tanstack/react-query'

// The server functions are imported when first called: a first load's data comes with the HTML, so first-load
// scripts carry no server-function code (vite.config.ts, docs/decisions/0008).
export const functions = () => import('./class-detail.functions')

export const classDetailQuery = (id: number) =>
  queryOptions({
    queryKey: ['class-detail', id],
    queryFn: () => functions().then((f) => f.getClassDetail({ data: id })),
    staleTime: 30_000,
  })

/** The signed-in member's favorite state of one class (members only; see getFavoriteState). */
export const favoriteStateQuery = (id: number) =>
  queryOptions({
    queryKey: ['favorite-state', id],
    queryFn: () => functions().then((f) => f.getFavoriteState({ data: id })),
    staleTime: 30_000,
  })

/** The signed-in member's open リクエスト開催 of one class (members only; see getMyClassRequest). */
export const myClassRequestQuery = (id: number) =>
  queryOptions({
    queryKey: ['my-class-request', id],
    queryFn: () => functions().then((f) => f.getMyClassRequest({ data: id })),
    staleTime: 30_000,
  })

/** One page of a class's reviews (depends on the viewer: can_reply, can_report). */
export const classReviewsQuery = (id: number, page = 1) =>
  queryOptions({
    queryKey: ['class-reviews', id, page],
    queryFn: () => functions().then((f) => f.getClassReviews({ data: { id, page } })),
    staleTime: 30_000,
  })
