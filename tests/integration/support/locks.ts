import { eq } from 'drizzle-orm'
import { users } from '../../../app/db/schema'
import type { TestApi } from './api'

type Tx = Parameters<Parameters<TestApi['db']['transaction']>[0]>[0]

/**
 * Runs `hold` in a transaction, starts `write` while it is open, waits, commits, and returns the write's answer:
 * a deterministic "a write arrives while another transaction holds its rows" (meaningful on PostgreSQL; PGlite has
 * one connection, so there the write simply runs after the commit).
 */
export async function whileHeld<T>(
  api: TestApi,
  hold: (tx: Tx) => Promise<void>,
  write: () => Promise<T>,
): Promise<T> {
  let pending: Promise<T> | undefined
  await api.db.transaction(async (tx) => {
    await hold(tx)
    pending = write()
    // Time for the write to finish if nothing held it back.
    await new Promise((r) => setTimeout(r, 300))
  })
  return pending!
}

/**
 * Runs `write` while a suspension of `userId` is being committed, as suspendAccount begins one: the member's row
 * FOR UPDATE, then `suspended_at` set. On PostgreSQL the write arrives while the row is held; it must wait for the
 * suspension and then see it.
 */
export function whileSuspending<T>(api: TestApi, userId: number, write: () => Promise<T>): Promise<T> {
  return whileHeld(
    api,
    async (tx) => {
      await tx.select({ id: users.id }).from(users).where(eq(users.id, userId)).for('update')
      await tx.update(users).set({ suspendedAt: api.now }).where(eq(users.id, userId))
    },
    write,
  )
}
