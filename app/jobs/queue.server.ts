import { sql } from 'drizzle-orm'
import type { DbOrTx } from '../db/client'
import { jobs } from '../db/schema'

/**
 * Durable jobs (docs/decisions/0017). `enqueue` takes the caller's transaction, so a change and the work it causes
 * commit together or not at all (outbox): a rolled-back reservation sends no mail.
 */

export interface EnqueueOptions {
  /** Not before this time (default: now). */
  runAt?: Date
  /** A second enqueue with the same key, while the first row is kept (a week after it finished), does nothing. */
  dedupeKey?: string
  maxAttempts?: number
}

/**
 * Attempts of a takedown's file deletion (an image released by an operator's hide, a suspension, a replacement).
 * Its ownership row goes with the first attempt, so a job that gave up would leave the file served with nothing to
 * find it again; the runner's backoff tops out at an hour, so this keeps trying for about a day of storage outage.
 */
export const RELEASE_MAX_ATTEMPTS = 36

/** Channel the runner listens on so that a committed job starts at once instead of at the next poll. */
export const JOBS_CHANNEL = 'jobs_ready'

export async function enqueue(
  db: DbOrTx,
  kind: string,
  payload: Record<string, unknown>,
  options: EnqueueOptions = {},
): Promise<void> {
  await db
    .insert(jobs)
    .values({
      kind,
      payload,
      dedupeKey: options.dedupeKey ?? null,
      runAt: options.runAt ?? sql`now()`,
      ...(options.maxAttempts ? { maxAttempts: options.maxAttempts } : {}),
    })
    .onConflictDoNothing({ target: jobs.dedupeKey })
  // NOTIFY inside a transaction is delivered at commit, and never on rollback. On the embedded database the runner
  // polls (there is one process, and its poll is short).
  await db.execute(sql`select pg_notify(${JOBS_CHANNEL}, '')`)
}
