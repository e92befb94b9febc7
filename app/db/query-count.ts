import { AsyncLocalStorage } from 'node:async_hooks'
import type { Logger } from 'drizzle-orm'
import { readLive } from './page-reads'

/**
 * Counts the database statements one request makes (issue 18): the benchmark reports them per page and a test
 * fails when a public page's count grows with the catalogue. Every statement through Drizzle is counted in the
 * async context of the request that runs it — page rendering, server functions and the in-process /v1 calls alike.
 */
const current = new AsyncLocalStorage<{ queries: number }>()

/**
 * Drizzle's logger hook: one increment per statement, nothing outside a counted request. A statement is also a read
 * no cache answered, for the request's page (page-reads.ts).
 */
export const queryCountLogger: Logger = {
  logQuery() {
    const counter = current.getStore()
    if (counter) counter.queries++
    readLive()
  },
}

/** Runs `fn` with a fresh counter; `counter.queries` is the number of statements it made (so far). */
export function countQueries<T>(fn: () => T): { result: T; counter: { queries: number } } {
  const counter = { queries: 0 }
  return { result: current.run(counter, fn), counter }
}
