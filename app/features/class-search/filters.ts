import { groupDigits } from '~/lib/format'
import { DAY_TIMES, type DayTime, WEEKDAYS, type Weekday } from '~/lib/request-slots'
import type { ClassSearchParams } from './search-params'
import { parseClassSearch } from './search-params'

/** A filter as the page names it: price and date ranges are one filter each. */
export type FilterKey =
  | 'q'
  | 'category'
  | 'grade'
  | 'style'
  | 'price'
  | 'date'
  | 'weekday'
  | 'time'
  | 'rating'

export type FilterNames = {
  categories: readonly { id: number; name: string }[]
  targetGrades: readonly { id: number; name: string }[]
  classStyles: readonly { id: number; name: string }[]
}

const yen = (n: number) => (n === 0 ? '0円' : `${groupDigits(n)}円`)
/** 2026-11-01 → 2026/11/1 (a calendar day, no time zone involved). */
const day = (d: string) => {
  const [y, m, dd] = d.split('-')
  return `${y}/${Number(m)}/${Number(dd)}`
}

/** The filters that narrow the current search, with a label for each (for chips and the empty state). */
export function activeFilters(p: ClassSearchParams, names: FilterNames): { key: FilterKey; label: string }[] {
  const nameOf = (list: FilterNames['categories'], id: number) =>
    list.find((x) => x.id === id)?.name ?? `#${id}`
  const out: { key: FilterKey; label: string }[] = []
  if (p.q) out.push({ key: 'q', label: `「${p.q}」` })
  if (p.category !== undefined) out.push({ key: 'category', label: nameOf(names.categories, p.category) })
  if (p.grade !== undefined) out.push({ key: 'grade', label: nameOf(names.targetGrades, p.grade) })
  if (p.style !== undefined) out.push({ key: 'style', label: nameOf(names.classStyles, p.style) })
  if (p.price_min !== undefined || p.price_max !== undefined) {
    const label =
      p.price_max === 0
        ? '無料'
        : `${p.price_min !== undefined ? yen(p.price_min) : ''}〜${p.price_max !== undefined ? yen(p.price_max) : ''}`
    out.push({ key: 'price', label })
  }
  if (p.from || p.to)
    out.push({ key: 'date', label: `${p.from ? day(p.from) : ''}〜${p.to ? day(p.to) : ''}` })
  if (p.weekday)
    out.push({
      key: 'weekday',
      label: `${p.weekday
        .split(',')
        .map((d) => WEEKDAYS[d as Weekday])
        .join('・')}曜`,
    })
  if (p.time)
    out.push({
      key: 'time',
      label: p.time
        .split(',')
        .map((t) => DAY_TIMES[t as DayTime])
        .join('・'),
    })
  if (p.rating_min !== undefined) out.push({ key: 'rating', label: `★${p.rating_min}以上` })
  return out
}

/** The same search without one filter, back on the first page. */
export function withoutFilter(p: ClassSearchParams, key: FilterKey): ClassSearchParams {
  const { page: _page, ...rest } = p
  if (key === 'price') {
    const { price_min: _a, price_max: _b, ...r } = rest
    return r
  }
  if (key === 'date') {
    const { from: _a, to: _b, ...r } = rest
    return r
  }
  if (key === 'rating') {
    const { rating_min: _a, ...r } = rest
    return r
  }
  const { [key]: _removed, ...r } = rest
  return r
}

/** Every filter removed; the sort order stays. */
export function clearFilters(p: ClassSearchParams): ClassSearchParams {
  return p.sort ? { sort: p.sort } : {}
}

/** The filter form's fields as text, which is what the inputs hold. */
export type FilterDraft = Record<
  | 'q'
  | 'category'
  | 'grade'
  | 'style'
  | 'price_min'
  | 'price_max'
  | 'from'
  | 'to'
  | 'rating_min'
  | 'weekday'
  | 'time',
  string
>

export function toDraft(p: ClassSearchParams): FilterDraft {
  const s = (v: string | number | undefined) => (v === undefined ? '' : String(v))
  return {
    q: s(p.q),
    category: s(p.category),
    grade: s(p.grade),
    style: s(p.style),
    price_min: s(p.price_min),
    price_max: s(p.price_max),
    from: s(p.from),
    to: s(p.to),
    rating_min: s(p.rating_min),
    weekday: s(p.weekday),
    time: s(p.time),
  }
}

/** The search a filled-in form asks for: validated like the URL, on the first page, keeping the sort. */
export function fromDraft(draft: FilterDraft, current: ClassSearchParams): ClassSearchParams {
  const raw: Record<string, unknown> = {}
  for (const [k, v] of Object.entries(draft)) if (v.trim() !== '') raw[k] = v.trim()
  if (current.sort) raw.sort = current.sort
  return parseClassSearch(raw)
}

/** A canonical text of a search (sorted keys, unset values left out), to compare two searches. */
export function searchKey(p: ClassSearchParams): string {
  const entries = Object.entries(p)
    .filter(([, v]) => v !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
  return JSON.stringify(entries)
}
