import type { FuriganaIds } from '~/contract/v1/furigana'

/** At most this many ids of each kind in one furigana request (the API's limit). */
export const MAX_FURIGANA_IDS = 60

/**
 * A page's ids as one query key: each kind without repeats, sorted, and cut to the API's limit (a teacher with more
 * classes than that gets readings for the first ones; the rest show as plain text).
 */
export function normalizeFuriganaIds(ids: FuriganaIds): FuriganaIds {
  const norm = (v: number[] | undefined) =>
    v && v.length > 0 ? [...new Set(v)].sort((a, b) => a - b).slice(0, MAX_FURIGANA_IDS) : undefined
  return {
    class_ids: norm(ids.class_ids),
    user_ids: norm(ids.user_ids),
    announcement_ids: norm(ids.announcement_ids),
  }
}
