import { type QueryClient, queryOptions } from '@tanstack/react-query'
import { type FuriganaIdsInput, getFixedFurigana, getFurigana } from './furigana.functions'
import { normalizeFuriganaIds } from './ids'

/** The furigana of some content (one key per page, within the API's limits: ids.ts). */
export const furiganaQuery = (ids: FuriganaIdsInput) => {
  const data = normalizeFuriganaIds(ids)
  return queryOptions({
    queryKey: ['furigana', data],
    queryFn: () => getFurigana({ data }),
    staleTime: 60_000,
  })
}

/** The site's fixed texts: the same until the next deploy. */
export const fixedFuriganaQuery = () =>
  queryOptions({
    queryKey: ['furigana', 'fixed'],
    queryFn: () => getFixedFurigana(),
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
