import { connect, type Socket } from 'node:net'
import postgres from 'postgres'
import { afterEach, describe, expect, it } from 'vitest'
import { Relay } from './support/tcp-relay'

// The PostgreSQL driver when the database's socket closes under it (patches/postgres+3.4.9.patch, porsager/postgres
// #1208). Unpatched, a query written to a connection whose socket was gone threw from a setImmediate and ended the
// whole server (the outage e2e test saw the server refuse connections right after a cut), and a pooled connection
// that had lost its socket kept a stale write timer, so its next start-up message was never sent.

const ADMIN_URL = process.env.TEST_DATABASE_URL

describe.skipIf(!ADMIN_URL)('postgres.js after the database socket closed (PostgreSQL)', () => {
  let relay: Relay | undefined
  let sql: postgres.Sql | undefined

  afterEach(async () => {
    await sql?.end({ timeout: 1 }).catch(() => {})
    await relay?.down()
  })

  async function throughRelay(options: postgres.Options<Record<string, never>> = {}) {
    const target = new URL(ADMIN_URL!)
    relay = new Relay({ host: target.hostname, port: Number(target.port || 5432) })
    await relay.up()
    const url = new URL(ADMIN_URL!)
    url.host = `127.0.0.1:${relay.port}`
    sql = postgres(url.toString(), { onnotice: () => {}, connect_timeout: 5, ...options })
    return sql
  }

  /** Until the client has seen the close (the relay's reset reaches it on a later turn of the event loop). */
  const settle = () => new Promise((r) => setTimeout(r, 300))

  it('a query on a reserved connection whose socket closed is refused, and the process goes on', async () => {
    const db = await throughRelay({ max: 1 })
    const reserved = await db.reserve()
    expect(await reserved`select 1 as one`).toEqual([{ one: 1 }])
    await relay!.down()
    await settle()
    // A short query: the driver buffers it for a setImmediate, which found no socket.
    await expect(reserved`select 2 as two`).rejects.toMatchObject({ code: 'CONNECTION_CLOSED' })
    reserved.release()
  })

  it('a connection whose socket closed with a write still buffered connects again and answers', async () => {
    const target = new URL(ADMIN_URL!)
    let last: Socket | undefined
    sql = postgres(ADMIN_URL!, {
      max: 1,
      backoff: () => 0,
      connect_timeout: 5,
      onnotice: () => {},
      // @ts-expect-error A socket of one's own is a postgres.js option (for other transports) missing from its types.
      socket: () => {
        last = connect(Number(target.port || 5432), target.hostname)
        return last
      },
    })
    expect(await sql`select 1 as one`).toEqual([{ one: 1 }])
    // A short query is buffered for the next turn's setImmediate; the socket's close comes earlier, at the end of
    // this turn. The query is refused, and the driver's cleared write timer used to stay set: nothing it wrote on
    // that connection was ever sent again, its next start-up message first.
    const cut = await new Promise<string | undefined>((resolve) =>
      setImmediate(() => {
        sql!`select 2 as two`.then(
          () => resolve('answered'),
          (error: { code?: string }) => resolve(error.code),
        )
        last!.destroy()
      }),
    )
    expect(cut).toBe('CONNECTION_CLOSED')
    const began = Date.now()
    expect(await sql`select 3 as three`).toEqual([{ three: 3 }])
    // Well inside connect_timeout: the start-up message went out at once.
    expect(Date.now() - began).toBeLessThan(2_000)
  })
})
