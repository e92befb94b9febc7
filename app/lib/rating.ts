/** Reviews' figures (issue 16): the average shown for `count` reviews summing to `sum`, one decimal. */
export function ratingSummary(count: number, sum: number): { average: number | null; count: number } {
  // Tenths from one division of integers, exact at the halves (x.x5 rounds up): the same figure as the search's
  // rating_halves column computes in SQL (migration 0025), so "★4以上" keeps every card showing ★4.0.
  return { count, average: count > 0 ? Math.round((sum * 10) / count) / 10 : null }
}

/** ★★★★☆ for an average (rounded to the nearest whole star), for screen text next to the number. */
export function starsText(average: number): string {
  const full = Math.min(5, Math.max(0, Math.round(average)))
  return '★'.repeat(full) + '☆'.repeat(5 - full)
}
