import '@tanstack/react-start/server-only'
import { getRequest, setResponseHeader } from '@tanstack/react-start/server'
import { ServerFnError } from '~/lib/server-fn-error'
import {
  claimKey,
  completeKey,
  fingerprintOf,
  IDEMPOTENCY_KEY,
  releaseKey,
  waitForKey,
} from '../api/services/idempotency'
import { getDb } from '../db/client'
import { withWriteKeys } from './api-client/write-keys.server'
import { getSessionClaims } from './auth/flow.server'
import { getConfig } from './config'

/**
 * The server side of app/middleware/idempotency.ts: a signed-in member's POST server function that carries an
 * idempotency key runs once per key within 24 h; a repeat gets the first result (JSON) and changes nothing.
 * Calls without a key, without a session, or rendered during SSR run as usual.
 */
export async function runIdempotent<R extends { result?: unknown }>(
  functionId: string | undefined,
  data: unknown,
  next: () => Promise<R>,
  ctx: object,
): Promise<R> {
  const request = getRequest()
  const key = request.headers.get('idempotency-key')
  if (
    !key ||
    !functionId ||
    request.method !== 'POST' ||
    !new URL(request.url).pathname.startsWith('/_serverFn/')
  )
    return next()
  if (!IDEMPOTENCY_KEY.test(key))
    throw new ServerFnError({ status: 400, code: 'invalid_idempotency_key', message: '不正なリクエストです' })
  const claims = await getSessionClaims(request)
  if (!claims) return next()
  const scope = `bff:${getConfig().siteOrigin}|${claims.sub}`
  const fingerprint = fingerprintOf(functionId, JSON.stringify(data ?? null))
  const db = await getDb()
  let claim = await claimKey(db, scope, key, fingerprint)
  if (claim.kind === 'in_progress') claim = await waitForKey(db, scope, key, fingerprint)
  if (claim.kind === 'mismatch')
    throw new ServerFnError({ status: 422, code: 'idempotency_key_reused', message: '不正なリクエストです' })
  if (claim.kind === 'in_progress')
    throw new ServerFnError({
      status: 409,
      code: 'idempotency_in_progress',
      message: '同じ操作を処理中です。しばらくしてからお試しください',
    })
  if (claim.kind === 'replay') {
    setResponseHeader('idempotent-replayed', 'true')
    return { ...ctx, result: JSON.parse(claim.response) } as R
  }
  let result: R
  try {
    // Its /v1 writes carry keys derived from this one: one that outlived its timeout is not made again by a retry.
    result = await withWriteKeys(key, next)
  } catch (error) {
    // Refusals (4xx) are thrown as errors too: the member fixes the input and sends again, under the same key.
    await releaseKey(db, scope, key).catch(() => {})
    throw error
  }
  const json = safeJson(result.result)
  if (json === undefined) await releaseKey(db, scope, key).catch(() => {})
  else await completeKey(db, scope, key, 200, json)
  return result
}

function safeJson(value: unknown): string | undefined {
  try {
    return JSON.stringify(value === undefined ? null : value)
  } catch {
    return undefined
  }
}
