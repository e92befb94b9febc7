import { type QueryClient, queryOptions } from '@tanstack/react-query'
import type { FuriganaIdsInput } from './furigana.functions'
import { normalizeFuriganaIds } from './ids'

// The server functions are imported when a query first runs: a first load's data comes with the HTML, so
// first-load scripts carry no server-function code (vite.config.ts, docs/decisions/0008).

/** The furigana of some content (one key per page, within the API's limits: ids.ts). */
export const furiganaQuery = (ids: FuriganaIdsInput) => {
  const data = normalizeFuriganaIds(ids)
  return queryOptions({
    queryKey: ['furigana', data],
    queryFn: () => import('./furigana.functions').then((m) => m.getFurigana({ data })),
    staleTime: 60_000,
  })
}

/** The site's fixed texts: the same until the next deploy. */
export const fixedFuriganaQuery = () =>
  queryOptions({
    queryKey: ['furigana', 'fixed'],
    queryFn: () => import('./furigana.functions').then((m) => m.getFixedFurigana()),
    staleTime: Number.POSITIVE_INFINITY,
  })

/** For loaders: the page's furigana, when the mode is on (before the first render, so the HTML has it). */
export async function prefetchFurigana(
  queryClient: QueryClient,
  on: boolean | undefined,
  ids: FuriganaIdsInput,
) {
  if (on) await queryClient.ensureQueryData(furiganaQuery(ids)).catch(() => undefined)
}
