import '@tanstack/react-start/server-only'
import { sql } from 'drizzle-orm'
import { DATABASE_RETRY_AFTER_S, getDb } from '../db/client'

/** How long /readyz waits for the database before saying it is not ready. */
export const READINESS_TIMEOUT_MS = 2_000

/** /readyz: the database answers a trivial query within READINESS_TIMEOUT_MS. */
export async function readinessResponse(): Promise<Response> {
  let timer: NodeJS.Timeout | undefined
  try {
    await Promise.race([
      getDb().then((db) => db.execute(sql`select 1`)),
      new Promise((_, reject) => {
        timer = setTimeout(() => reject(new Error('timeout')), READINESS_TIMEOUT_MS)
      }),
    ])
    return Response.json({ status: 'ready' }, { headers: { 'cache-control': 'no-store' } })
  } catch {
    return Response.json(
      { status: 'unavailable', code: 'database_unavailable', message: 'ただいまサービスを利用できません' },
      {
        status: 503,
        headers: { 'cache-control': 'no-store', 'retry-after': String(DATABASE_RETRY_AFTER_S) },
      },
    )
  } finally {
    clearTimeout(timer)
  }
}
