import { calendarDay, intIn, oneOf, scalarText, textUpTo } from '~/lib/search-values'

/**
 * The typed search parameters of /class_search (PRODUCT.md). The URL is the whole state of the page, so a
 * bad value (hand-edited or from an old link) falls back to its default instead of failing the page.
 * The readers are plain functions: validateSearch ships in every page's first load (app/lib/search-values.ts).
 */
export const sorts = ['new', 'start', 'price_asc', 'price_desc', 'popular', 'rating'] as const
export type Sort = (typeof sorts)[number]

export const sortLabels: Record<Sort, string> = {
  new: '新着順',
  start: '開催日が近い順',
  price_asc: '料金が安い順',
  price_desc: '料金が高い順',
  popular: '人気順',
  rating: '評価が高い順',
}

/** The review averages the filter offers (★ and up). */
export const ratingMins = [4.5, 4, 3.5, 3] as const

const WEEKDAY_KEYS = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'] as const
const TIME_KEYS = ['morning', 'afternoon', 'evening'] as const

/** `sat,sun` (or an array) → the known keys in their own order, comma-joined; undefined when none is known. */
function keyList(input: unknown, keys: readonly string[]): string | undefined {
  const raw = Array.isArray(input) ? input.map(scalarText) : typeof input === 'string' ? input.split(',') : []
  const picked = keys.filter((k) => raw.includes(k))
  return picked.length > 0 ? picked.join(',') : undefined
}

const MAX_YEN = 10_000_000
const MAX_ID = 999_999_999

export type ClassSearchParams = {
  q?: string
  category?: number
  grade?: number
  style?: number
  price_min?: number
  price_max?: number
  from?: string
  to?: string
  rating_min?: number
  /** Tokyo weekdays, comma-joined in week order: `sat,sun`. */
  weekday?: string
  /** Times of day, comma-joined: `morning,evening`. */
  time?: string
  sort?: Sort
  page?: number
}

/**
 * validateSearch of /class_search: never throws. Every known key is present, undefined when the URL's value is
 * missing or invalid — the router merges a route's validated search over the raw one, so a dropped key would
 * let the raw (invalid) value through.
 */
export function parseClassSearch(input: Record<string, unknown>): ClassSearchParams {
  const out: ClassSearchParams = {
    q: textUpTo(input.q, 100),
    category: intIn(input.category, 1, MAX_ID),
    grade: intIn(input.grade, 1, MAX_ID),
    style: intIn(input.style, 1, MAX_ID),
    price_min: intIn(input.price_min, 0, MAX_YEN),
    price_max: intIn(input.price_max, 0, MAX_YEN),
    from: calendarDay(input.from),
    to: calendarDay(input.to),
    rating_min: ratingMins.find((r) => String(r) === scalarText(input.rating_min)),
    weekday: keyList(input.weekday, WEEKDAY_KEYS),
    time: keyList(input.time, TIME_KEYS),
    sort: oneOf(input.sort, sorts),
    page: intIn(input.page, 1, 1000),
  }
  // A reversed price or date range is read the way the person meant it.
  if (out.price_min !== undefined && out.price_max !== undefined && out.price_min > out.price_max) {
    ;[out.price_min, out.price_max] = [out.price_max, out.price_min]
  }
  if (out.from && out.to && out.from > out.to) [out.from, out.to] = [out.to, out.from]
  if (out.page === 1) out.page = undefined
  return out
}

/** True when any filter narrows the results (for the empty state's advice). */
export function hasFilters(p: ClassSearchParams): boolean {
  return Boolean(
    p.q ||
      p.category ||
      p.grade ||
      p.style ||
      p.price_min !== undefined ||
      p.price_max !== undefined ||
      p.from ||
      p.to ||
      p.weekday ||
      p.time ||
      p.rating_min !== undefined,
  )
}
