import { type QueryClient, queryOptions } from '@tanstack/react-query'
import { type FuriganaIdsInput, getFixedFurigana, getFurigana } from './furigana.functions'

/** The furigana of some content; ids sorted so that one page's key is one key. */
export const furiganaQuery = (ids: FuriganaIdsInput) => {
  const norm = (v: number[] | undefined) =>
    v && v.length > 0 ? [...new Set(v)].sort((a, b) => a - b) : undefined
  const data = {
    class_ids: norm(ids.class_ids),
    user_ids: norm(ids.user_ids),
    announcement_ids: norm(ids.announcement_ids),
  }
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
