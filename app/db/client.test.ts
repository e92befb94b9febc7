import { createServer } from 'node:net'
import postgres from 'postgres'
import { describe, expect, it } from 'vitest'
import { PG_CONNECT_TIMEOUT_S, pgReconnectDelayS } from './client'

/** A local port nothing listens on (connections are refused at once, like a database that went away). */
async function deadPort(): Promise<number> {
  const server = createServer()
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
  const { port } = server.address() as { port: number }
  await new Promise<void>((r) => server.close(() => r()))
  return port
}

describe('reconnecting to a PostgreSQL server that is away', () => {
  it('never waits more than half a second between attempts', () => {
    for (let failures = 0; failures < 50; failures++) {
      expect(pgReconnectDelayS(failures)).toBeGreaterThan(0)
      expect(pgReconnectDelayS(failures)).toBeLessThanOrEqual(0.5)
    }
  })

  it('keeps failing fast however long the outage lasts (the default backoff grew to 20 s)', async () => {
    const sql = postgres(`postgres://nobody@127.0.0.1:${await deadPort()}/nothing`, {
      max: 2,
      connect_timeout: PG_CONNECT_TIMEOUT_S,
      backoff: pgReconnectDelayS,
      onnotice: () => {},
    })
    try {
      const slowest = { ms: 0 }
      for (let i = 0; i < 25; i++) {
        const began = Date.now()
        await expect(sql`select 1`).rejects.toThrow()
        slowest.ms = Math.max(slowest.ms, Date.now() - began)
      }
      expect(slowest.ms).toBeLessThan(1_500)
    } finally {
      await sql.end({ timeout: 1 })
    }
  }, 30_000)
})
