/**
 * The queries a first load hydrates count as fetched when the page arrived from the server, in the browser's own
 * clock (docs/decisions/0040). The server stamps each dehydrated query with its render time, but a visitor's page
 * may be answered again, byte for byte, up to tens of seconds after that render once the server has checked that
 * everything it read is still current (0026, 0033); and the browser's clock need not agree with the server's.
 * Left as stamped, the page's queries could be stale (staleTime 30 s) the moment they mount, and every one of
 * them would fetch again at once: a request per query for data the page has just shown, with the server-function
 * code a first load otherwise leaves for later.
 */
export interface DehydratedQueries {
  query?: { initial?: { state: { dataUpdatedAt: number; status: string } }[] }
}

/** What the browser's Navigation Timing entry says of the document (PerformanceNavigationTiming). */
export interface DocumentArrival {
  type: string
  transferSize: number
}

/**
 * Whether the document came from the server just now (a 304 that confirmed a cached copy counts: the server
 * compared its ETag). A copy the browser took from its own cache without asking — Back and Forward, a restored
 * tab — may be old, so its queries keep their render times and fetch again if stale. Unknown: not fresh.
 */
export function cameFromServer(entry: DocumentArrival | undefined): boolean {
  return !!entry && entry.type !== 'back_forward' && entry.transferSize > 0
}

/** Stamps each hydrated query that was fetched successfully as updated at `now`; others are left alone. */
export function freshOnArrival(dehydrated: DehydratedQueries | undefined, now: number): void {
  for (const query of dehydrated?.query?.initial ?? []) {
    if (query.state.status === 'success' && query.state.dataUpdatedAt > 0) query.state.dataUpdatedAt = now
  }
}
