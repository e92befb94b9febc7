/**
 * The queries a first load hydrates count as fetched when the page arrived, in the browser's own clock
 * (docs/decisions/0040). The server stamps each dehydrated query with its render time, but a visitor's page may
 * be answered again, byte for byte, up to tens of seconds after that render once the server has checked that
 * everything it read is still current (0026, 0033); and the browser's clock need not agree with the server's.
 * Left as stamped, the page's queries could be stale (staleTime 30 s) the moment they mount, and every one of
 * them would fetch again at once: a request per query for data the page has just shown, with the server-function
 * code a first load otherwise leaves for later.
 */
export interface DehydratedQueries {
  query?: { initial?: { state: { dataUpdatedAt: number } }[] }
}

/** Stamps each hydrated query that holds data as updated at `now`; a query without data (0) is left alone. */
export function freshOnArrival(dehydrated: DehydratedQueries | undefined, now: number): void {
  for (const query of dehydrated?.query?.initial ?? []) {
    if (query.state.dataUpdatedAt > 0) query.state.dataUpdatedAt = now
  }
}
