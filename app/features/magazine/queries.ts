import { queryOptions } from '@tanstack/react-query'
import { getMagazineArticle, listMagazine } from './magazine.functions'
import type { MagazineSearchParams } from './search-params'

export const magazineListQuery = (params: MagazineSearchParams) =>
  queryOptions({
    queryKey: ['magazine', params],
    queryFn: () => listMagazine({ data: params }),
    staleTime: 60_000,
  })

export const magazineArticleQuery = (id: number) =>
  queryOptions({
    queryKey: ['magazine-article', id],
    queryFn: () => getMagazineArticle({ data: id }),
    staleTime: 60_000,
  })
