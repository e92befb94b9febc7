import { createHash } from 'node:crypto'
import { and, eq, lt, sql } from 'drizzle-orm'
import type { Db } from '../../db/client'
import { idempotencyKeys } from '../../db/schema'

/**
 * Idempotency keys (issue #13): the first answer to a write, replayed for a repeat with the same key by the
 * same caller within 24 h. Used by the /v1 middleware (app/api/idempotency.ts) and the server-function
 * middleware (app/middleware/idempotency.ts). The key is claimed with one INSERT … ON CONFLICT DO NOTHING, so two
 * concurrent repeats cannot both run.
 */

export const IDEMPOTENCY_WINDOW_MS = 24 * 60 * 60 * 1000
/** 1–200 visible ASCII characters (a UUID, a ULID, a random token…). */
export const IDEMPOTENCY_KEY = /^[\x21-\x7e]{1,200}$/

export type Claim =
  | { kind: 'new' }
  | { kind: 'replay'; status: number; response: string }
  | { kind: 'in_progress' }
  | { kind: 'mismatch' }

export function fingerprintOf(...parts: string[]): string {
  return createHash('sha256').update(parts.join('\u0000')).digest('base64url')
}

export async function claimKey(
  db: Db,
  scope: string,
  key: string,
  fingerprint: string,
  now = new Date(),
): Promise<Claim> {
  for (let attempt = 0; attempt < 2; attempt++) {
    const inserted = await db
      .insert(idempotencyKeys)
      .values({ scope, key, fingerprint, createdAt: now })
      .onConflictDoNothing()
      .returning({ key: idempotencyKeys.key })
    if (inserted.length > 0) {
      if (Math.random() < 1 / 100) void sweepKeys(db, now)
      return { kind: 'new' }
    }
    const [row] = await db
      .select()
      .from(idempotencyKeys)
      .where(and(eq(idempotencyKeys.scope, scope), eq(idempotencyKeys.key, key)))
    if (!row) continue // released meanwhile: claim again
    if (now.getTime() - row.createdAt.getTime() > IDEMPOTENCY_WINDOW_MS) {
      // Older than the window: a new request that happens to reuse the key.
      await db
        .delete(idempotencyKeys)
        .where(
          and(
            eq(idempotencyKeys.scope, scope),
            eq(idempotencyKeys.key, key),
            eq(idempotencyKeys.createdAt, row.createdAt),
          ),
        )
      continue
    }
    if (row.fingerprint !== fingerprint) return { kind: 'mismatch' }
    if (row.status === null || row.response === null) return { kind: 'in_progress' }
    return { kind: 'replay', status: row.status, response: row.response }
  }
  return { kind: 'in_progress' }
}

/** Keeps the answer of a claimed key (2xx and 4xx only: a 5xx releases the key so that a retry runs). */
export async function completeKey(db: Db, scope: string, key: string, status: number, response: string) {
  await db
    .update(idempotencyKeys)
    .set({ status, response })
    .where(and(eq(idempotencyKeys.scope, scope), eq(idempotencyKeys.key, key)))
}

/** Gives the key up (the request failed on our side): a retry with it runs again. */
export async function releaseKey(db: Db, scope: string, key: string) {
  await db
    .delete(idempotencyKeys)
    .where(
      and(
        eq(idempotencyKeys.scope, scope),
        eq(idempotencyKeys.key, key),
        sql`${idempotencyKeys.status} is null`,
      ),
    )
}

/** Waits a little for a repeat's first request to finish; its claim, or in_progress if it is still running. */
export async function waitForKey(
  db: Db,
  scope: string,
  key: string,
  fingerprint: string,
  { tries = 10, delayMs = 200 } = {},
): Promise<Claim> {
  for (let i = 0; i < tries; i++) {
    await new Promise((r) => setTimeout(r, delayMs))
    const claim = await claimKey(db, scope, key, fingerprint)
    if (claim.kind !== 'in_progress') return claim
  }
  return { kind: 'in_progress' }
}

async function sweepKeys(db: Db, now: Date) {
  await db
    .delete(idempotencyKeys)
    .where(lt(idempotencyKeys.createdAt, new Date(now.getTime() - IDEMPOTENCY_WINDOW_MS)))
    .catch(() => {})
}
