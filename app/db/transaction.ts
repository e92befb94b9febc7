import type { Db, Tx } from './client'

/**
 * Transactions that PostgreSQL may abort for concurrency alone — a serialization failure (40001) or a deadlock
 * (40P01) — are run again, a bounded number of times with jittered backoff, so that the caller never sees them.
 * The lock order that keeps deadlocks rare is in docs/decisions/0015-lock-order.md.
 */

export const RETRYABLE_SQLSTATES = new Set(['40001', '40P01'])
export const TRANSACTION_ATTEMPTS = 5

/**
 * Conflicts retried by this process, by SQLSTATE. Retries hide a deadlock from the user, not from us: with the lock
 * order kept, '40P01' stays 0 (the crowd test checks it).
 */
export const retriedConflicts: Record<string, number> = { '40001': 0, '40P01': 0 }

/** The retryable SQLSTATE (40001 or 40P01) anywhere in an error's cause chain, or undefined. */
export function retryableConflictOf(err: unknown): string | undefined {
  for (let e: unknown = err, depth = 0; e && depth < 6; e = (e as { cause?: unknown }).cause, depth++) {
    const code = (e as { code?: unknown }).code
    if (typeof code === 'string' && RETRYABLE_SQLSTATES.has(code)) return code
  }
  return undefined
}

/** True when an error (anywhere in its cause chain) is a serialization failure or a deadlock. */
export const isRetryableConflict = (err: unknown): boolean => retryableConflictOf(err) !== undefined

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
      const code = retryableConflictOf(err)
      if (attempt >= attempts || code === undefined) throw err
      retriedConflicts[code] = (retriedConflicts[code] ?? 0) + 1
      await sleep(Math.ceil(random() * base * 2 ** attempt))
    }
  }
}

/**
 * `db.transaction(fn)`, retried on serialization failures and deadlocks. `fn` must be safe to run again (no side
 * effect outside `tx` before its last lock is taken), and `db` must not be a transaction already: a conflict aborts
 * the outer transaction, which only its own owner can run again.
 */
export function transaction<T>(db: Db, fn: (tx: Tx) => Promise<T>, options?: RetryOptions): Promise<T> {
  return retryOnConflict(() => db.transaction(fn), options)
}
