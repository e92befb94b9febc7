import { createHash } from 'node:crypto'
import { lt } from 'drizzle-orm'
import { RateLimiterDrizzle, RateLimiterRes } from 'rate-limiter-flexible'
import { LIMITS, type Limit, type LimitName, RATE_LIMITED_MESSAGE } from '../lib/limits'
import type { Db } from './client'
import { rateLimits } from './schema'

/**
 * Rate limits shared by every instance: rate-limiter-flexible's Drizzle store on the `rate_limits` table (one
 * atomic INSERT … ON CONFLICT DO UPDATE per attempt), on PGlite and PostgreSQL alike. The numbers are in
 * app/lib/limits.ts.
 */

export class RateLimitedError extends Error {
  override name = 'RateLimitedError'
  readonly status = 429
  readonly code = 'rate_limited'
  constructor(
    readonly retryAfterS: number,
    /** The first action refused in this window (one past the limit): what a log of refusals records once. */
    readonly firstRefusal = true,
  ) {
    super(RATE_LIMITED_MESSAGE)
  }
}

const limiters = new WeakMap<Db, Map<string, RateLimiterDrizzle>>()

function limiterFor(db: Db, name: string, limit: Limit): RateLimiterDrizzle {
  let byName = limiters.get(db)
  if (!byName) {
    byName = new Map()
    limiters.set(db, byName)
  }
  const id = `${name}:${limit.points}/${limit.durationS}`
  let limiter = byName.get(id)
  if (!limiter) {
    limiter = new RateLimiterDrizzle({
      storeClient: db,
      schema: rateLimits,
      keyPrefix: name,
      points: limit.points,
      duration: limit.durationS,
      // Cleaned by consume() below instead of a timer that would keep scripts and tests alive.
      clearExpiredByTimeout: false,
    })
    byName.set(id, limiter)
  }
  return limiter
}

/** A key that does not store what it is made of (addresses, e-mails, tokens). */
export function limitKey(...parts: string[]): string {
  return createHash('sha256').update(parts.join('\u0000')).digest('base64url').slice(0, 32)
}

/** Expired counters are removed now and then (about one consume in 200). */
async function sweep(db: Db) {
  if (Math.random() > 1 / 200) return
  await db
    .delete(rateLimits)
    .where(lt(rateLimits.expire, new Date()))
    .catch(() => {})
}

/** Counts one action (or `points` at once) for `key` under the named limit; throws RateLimitedError when it is over. */
export async function consume(
  db: Db,
  name: LimitName,
  key: string,
  limit: Limit = LIMITS[name],
  points = 1,
): Promise<void> {
  try {
    await limiterFor(db, name, limit).consume(key, points)
    void sweep(db)
  } catch (error) {
    if (error instanceof RateLimiterRes)
      throw new RateLimitedError(
        Math.max(1, Math.ceil(error.msBeforeNext / 1000)),
        error.consumedPoints <= limit.points + points,
      )
    throw error
  }
}

/** True when `key` is already over the named limit (without counting an action). */
export async function isLimited(db: Db, name: LimitName, key: string, limit: Limit = LIMITS[name]) {
  const res = await limiterFor(db, name, limit).get(key)
  return res !== null && res.consumedPoints >= limit.points
    ? Math.max(1, Math.ceil(res.msBeforeNext / 1000))
    : 0
}

/**
 * Returns one counted action to `key` (an action that was counted first, so that concurrent callers cannot pass the
 * limit together, and then refused for its content: a refused announcement is not one the families were mailed).
 */
export async function giveBack(
  db: Db,
  name: LimitName,
  key: string,
  limit: Limit = LIMITS[name],
): Promise<void> {
  await limiterFor(db, name, limit).reward(key, 1)
}

/** Forgets the count of `key` (a successful login clears its failed attempts). */
export async function reset(
  db: Db,
  name: LimitName,
  key: string,
  limit: Limit = LIMITS[name],
): Promise<void> {
  await limiterFor(db, name, limit).delete(key)
}
