import { queryOptions } from '@tanstack/react-query'
import { getClassDetail, getFavoriteState } from './class-detail.functions'

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
