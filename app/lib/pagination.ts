export type PageItem = number | 'gap'

/**
 * The page numbers a pager shows: the first and last pages, a window around the current page, and a gap
 * marker where pages are skipped. A gap never hides exactly one page (that page is shown instead).
 */
export function pageItems(current: number, total: number, around = 1): PageItem[] {
  if (total <= 1) return total === 1 ? [1] : []
  const page = Math.min(Math.max(1, current), total)
  const shown = new Set<number>([1, total])
  for (let p = page - around; p <= page + around; p++) if (p >= 1 && p <= total) shown.add(p)
  const sorted = [...shown].sort((a, b) => a - b)
  const out: PageItem[] = []
  for (const [i, p] of sorted.entries()) {
    const prev = sorted[i - 1]
    if (prev !== undefined && p - prev === 2) out.push(prev + 1)
    else if (prev !== undefined && p - prev > 2) out.push('gap')
    out.push(p)
  }
  return out
}
