import type { PGlite } from '@electric-sql/pglite'

/**
 * PGlite runs PostgreSQL as a single user, without the checkpointer that would start a checkpoint after every
 * max_wal_size of WAL: it never checkpoints by itself, so every write since the database opened stays in pg_wal
 * (measured: 273 MB of WAL under max_wal_size 32 MB, none recycled; a 100k-class seed wrote 17 GB). The embedded
 * database checks once a minute and checkpoints after 64 MB, as PostgreSQL would after its own threshold.
 */
export const CHECKPOINT_AFTER_BYTES = 64 * 1024 * 1024
const CHECK_EVERY_MS = 60_000

/** Checkpoints when the WAL written since the last checkpoint's redo point passes `afterBytes`; true when it did. */
export async function checkpointIfDue(client: PGlite, afterBytes = CHECKPOINT_AFTER_BYTES): Promise<boolean> {
  const { rows } = await client.query<{ pending: string | number }>(
    'select (pg_current_wal_insert_lsn() - (select redo_lsn from pg_control_checkpoint()))::bigint as pending',
  )
  if (Number(rows[0]?.pending ?? 0) < afterBytes) return false
  await client.exec('checkpoint')
  return true
}

/** Checks once a minute (an unref'd timer: it never keeps the process alive); returns what stops it. */
export function keepWalBounded(client: PGlite): () => void {
  let busy = false
  const timer = setInterval(() => {
    if (busy || client.closed) return
    busy = true
    // A failed check (the database closing) is simply made again at the next tick.
    checkpointIfDue(client)
      .catch(() => false)
      .finally(() => {
        busy = false
      })
  }, CHECK_EVERY_MS)
  timer.unref()
  return () => clearInterval(timer)
}
