import type { MiddlewareHandler } from 'hono'
import type { Db } from '../db/client'
import { RETRY_STATUSES } from '../lib/retry'
import { type AuthConfigSource, verifyAccessToken } from './auth'
import { ApiError, RequestTimedOutError } from './errors'
import {
  claimKey,
  completeKey,
  fingerprintOf,
  IDEMPOTENCY_KEY,
  releaseKey,
  waitForKey,
} from './services/idempotency'

/**
 * `Idempotency-Key` on /v1 writes (POST, PATCH, PUT, DELETE): a repeat within 24 h by the same caller with the
 * same key gets the first answer (`Idempotent-Replayed: true`) and changes nothing; the same key with another
 * request is 422; a repeat while the first still runs waits for it briefly, then 409; a repeat of one that was
 * answered 503 by the request timeout and then committed is 422 `idempotency_completed` (its answer is lost).
 * Anonymous writes and requests without the header run as usual.
 */
export function idempotency(getDb: () => Promise<Db>, auth: AuthConfigSource): MiddlewareHandler {
  return async (c, next) => {
    const key = c.req.header('idempotency-key')
    if (key === undefined || c.req.method === 'GET' || c.req.method === 'HEAD') return next()
    if (!IDEMPOTENCY_KEY.test(key))
      throw new ApiError(
        400,
        'invalid_idempotency_key',
        'Idempotency-Key は200文字以内の英数字・記号で指定してください',
      )
    const claims = await verifyAccessToken(c.req.header('authorization'), auth).catch(() => undefined)
    if (!claims) return next() // the route answers 401 (or runs as a public call)
    const scope = `v1:${claims.iss}|${claims.sub}`
    const fingerprint = fingerprintOf(c.req.method, c.req.path, await c.req.raw.clone().text())
    const db = await getDb()
    let claim = await claimKey(db, scope, key, fingerprint)
    if (claim.kind === 'in_progress') claim = await waitForKey(db, scope, key, fingerprint)
    if (claim.kind === 'mismatch')
      throw new ApiError(
        422,
        'idempotency_key_reused',
        'この Idempotency-Key は別のリクエストに使われています',
      )
    if (claim.kind === 'in_progress')
      throw new ApiError(
        409,
        'idempotency_in_progress',
        '同じリクエストを処理中です。しばらくしてからお試しください',
      )
    if (claim.kind === 'replay') {
      return new Response(claim.response, {
        status: claim.status,
        headers: { 'content-type': 'application/json; charset=utf-8', 'idempotent-replayed': 'true' },
      })
    }
    try {
      await next()
    } catch (error) {
      await releaseKey(db, scope, key).catch(() => {})
      throw error
    }
    // Answered 503 by the timeout while the write went on. `next()` resolves only when the route is done: had it
    // failed, its own error would have replaced the timeout's here (refusals are thrown, never returned: a returned
    // answer cannot replace the 503 — the validation hook in app.ts throws for this reason). It did not, so it
    // committed, and its answer went nowhere (Hono keeps the 503 already sent). A retry with this key must not run it again: until now it
    // was 409 idempotency_in_progress (retried while the write still runs); from now on it is told the write was
    // done, so the client reads the state again instead of waiting out the key's day.
    if (c.error instanceof RequestTimedOutError) {
      const done = {
        code: 'idempotency_completed',
        message: '同じリクエストはすでに処理されました。最新の状態を確認してください',
      }
      await completeKey(db, scope, key, 422, JSON.stringify(done)).catch(() => {})
      return
    }
    // A failure on our side, or a refusal the caller is told to retry (a rate limit, a conflict, too early, spec
    // §9's statuses): the key is given back, so that the retry runs instead of replaying the refusal for a day.
    if (c.res.status >= 500 || RETRY_STATUSES.includes(c.res.status))
      await releaseKey(db, scope, key).catch(() => {})
    else await completeKey(db, scope, key, c.res.status, await c.res.clone().text())
  }
}
