import { eq } from 'drizzle-orm'
import type { Tx } from '../../db/client'
import { users } from '../../db/schema'
import { ACCOUNT_SUSPENDED_MESSAGE } from '../auth'
import { ApiError } from '../errors'

/**
 * A suspension committed after the caller signed in ends their writes too (issue 15). The sign-in check ran
 * before this transaction; this reads the account again inside it. With `share` (taken first, before any class
 * lock, as the suspension takes the user row first: docs/decisions/0015) a write running at the same moment
 * either waits for the suspension and is refused, or commits first and is then seen and undone by it.
 * `key share` conflicts only with the suspension's FOR UPDATE, not with profile edits (a member's own booking);
 * `share` also waits for an organisation join (FOR NO KEY UPDATE), which a new class must see.
 */
export async function refuseIfSuspended(tx: Tx, userId: number, lock?: 'share' | 'key share'): Promise<void> {
  const q = tx.select({ suspendedAt: users.suspendedAt }).from(users).where(eq(users.id, userId))
  const [row] = lock ? await q.for(lock) : await q
  if (row?.suspendedAt) throw new ApiError(403, 'account_suspended', ACCOUNT_SUSPENDED_MESSAGE)
}
