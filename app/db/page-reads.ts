import { AsyncLocalStorage } from 'node:async_hooks'

/**
 * What one request read (docs/decisions/0033): a visitor's page may be answered again without rendering while
 * every read it made came from a shared cache whose entry is still the one it used. The API client records each
 * such read with a check; anything else it reads — an API call no cache answered, a database statement made
 * outside a cached read — makes the request `live`, and its page is rendered for every request as before.
 */
export interface PageReads {
  /** One per cached read: true while the cache still holds the result this request used. */
  readonly checks: (() => boolean)[]
  /** Something was read that no cache answered: the page is not kept. */
  live: boolean
}

const current = new AsyncLocalStorage<PageReads>()

/** Runs a request, recording its reads (currentPageReads() inside it). */
export function trackPageReads<T>(run: () => T): T {
  return current.run({ checks: [], live: false }, run)
}

/** The reads of the request being run, if it is tracked. */
export function currentPageReads(): PageReads | undefined {
  return current.getStore()
}

/** A read answered from a shared cache; `stillCurrent` says whether the cache still holds that same result. */
export function readCached(stillCurrent: () => boolean): void {
  current.getStore()?.checks.push(stillCurrent)
}

/** A read no cache answered (an API call, a database statement). */
export function readLive(): void {
  const reads = current.getStore()
  if (reads) reads.live = true
}

/**
 * Runs the call that fills a cache entry outside the request's record: its API call and statements are the
 * entry's, which the request records with readCached instead (another request may share the same entry).
 */
export function untracked<T>(run: () => T): T {
  return current.exit(run)
}
