import { queryOptions } from '@tanstack/react-query'
import type { MagazineSearchParams } from './search-params'

// The server functions are imported when first called: a first load's data comes with the HTML, so first-load
// scripts carry no server-function code (vite.config.ts, docs/decisions/0008).
const functions = () => import('./magazine.functions')

export const magazineListQuery = (params: MagazineSearchParams) =>
  queryOptions({
    queryKey: ['magazine', params],
    queryFn: () => functions().then((f) => f.listMagazine({ data: params })),
    staleTime: 60_000,
  })

export const magazineArticleQuery = (id: number) =>
  queryOptions({
    queryKey: ['magazine-article', id],
    queryFn: () => functions().then((f) => f.getMagazineArticle({ data: id })),
    staleTime: 60_000,
  })
