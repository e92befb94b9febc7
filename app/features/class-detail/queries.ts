import { queryOptions } from '@tanstack/react-query'
import { getClassDetail, getClassReviews, getFavoriteState } from './class-detail.functions'

export const classDetailQuery = (id: number) =>
  queryOptions({
    queryKey: ['class-detail', id],
    queryFn: () => getClassDetail({ data: id }),
    staleTime: 30_000,
  })

/** The signed-in member's favorite state of one class (members only; see getFavoriteState). */
export const favoriteStateQuery = (id: number) =>
  queryOptions({
    queryKey: ['favorite-state', id],
    queryFn: () => getFavoriteState({ data: id }),
    staleTime: 30_000,
  })

/** One page of a class's reviews (depends on the viewer: can_reply, can_report). */
export const classReviewsQuery = (id: number, page = 1) =>
  queryOptions({
    queryKey: ['class-reviews', id, page],
    queryFn: () => getClassReviews({ data: { id, page } }),
    staleTime: 30_000,
  })
