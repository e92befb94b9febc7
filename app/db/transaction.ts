import type { Db, Tx } from './client'

/**
 * Transactions that PostgreSQL may abort for concurrency alone — a serialization failure (40001) or a deadlock
 * (40P01) — are run again, a bounded number of times with jittered backoff, so that the caller never sees them.
 * The lock order that keeps deadlocks rare is in docs/decisions/0015-lock-order.md.
 */

export const RETRYABLE_SQLSTATES = new Set(['40001', '40P01'])
export const TRANSACTION_ATTEMPTS = 5

/** True when an error (anywhere in its cause chain) is a serialization failure or a deadlock. */
export function isRetryableConflict(err: unknown): boolean {
  for (let e: unknown = err, depth = 0; e && depth < 6; e = (e as { cause?: unknown }).cause, depth++) {
    const code = (e as { code?: unknown }).code
    if (typeof code === 'string' && RETRYABLE_SQLSTATES.has(code)) return true
  }
  return false
}

export interface RetryOptions {
  attempts?: number
  /** Base delay in ms; attempt n waits a random time up to base × 2ⁿ. */
  baseDelayMs?: number
  sleep?: (ms: number) => Promise<void>
  random?: () => number
}

/** Runs `work` again on a retryable conflict, up to `attempts` times in all. */
export async function retryOnConflict<T>(work: () => Promise<T>, options: RetryOptions = {}): Promise<T> {
  const attempts = options.attempts ?? TRANSACTION_ATTEMPTS
  const base = options.baseDelayMs ?? 5
  const sleep = options.sleep ?? ((ms) => new Promise((r) => setTimeout(r, ms)))
  const random = options.random ?? Math.random
  for (let attempt = 1; ; attempt++) {
    try {
      return await work()
    } catch (err) {
      if (attempt >= attempts || !isRetryableConflict(err)) throw err
      await sleep(Math.ceil(random() * base * 2 ** attempt))
    }
  }
}

/** `db.transaction(fn)`, retried on serialization failures and deadlocks. `fn` must be safe to run again. */
export function transaction<T>(db: Db, fn: (tx: Tx) => Promise<T>, options?: RetryOptions): Promise<T> {
  return retryOnConflict(() => db.transaction(fn), options)
}
