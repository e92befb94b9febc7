import { groupDigits } from '~/lib/format'

/**
 * What the result bar of the class search says: the count (「1,000件以上」 when the API stopped counting, see
 * docs/decisions/0011-search-sort-keys.md) and which results this page shows.
 */
export function describeResultCount(r: {
  total: number
  capped: boolean
  page: number
  perPage: number
  /** Items on this page. */
  shown: number
}): { count: string; unit: string; range: string | null } {
  const from = (r.page - 1) * r.perPage + 1
  return {
    count: groupDigits(r.total),
    unit: r.capped ? '件以上のクラス' : '件のクラス',
    range: r.shown > 0 ? `（${groupDigits(from)}〜${groupDigits(from + r.shown - 1)}件を表示）` : null,
  }
}
