/** Reviews' figures (issue 16): the average shown for `count` reviews summing to `sum`, one decimal. */
export function ratingSummary(count: number, sum: number): { average: number | null; count: number } {
  return { count, average: count > 0 ? Math.round((sum / count) * 10) / 10 : null }
}

/** ★★★★☆ for an average (rounded to the nearest whole star), for screen text next to the number. */
export function starsText(average: number): string {
  const full = Math.min(5, Math.max(0, Math.round(average)))
  return '★'.repeat(full) + '☆'.repeat(5 - full)
}
