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

  it('a transaction that goes on after its socket closed is refused, the process goes on, and the pool recovers', async () => {
    const db = await throughRelay({ max: 1, backoff: () => 0 })
    let late: (string | undefined)[] | undefined
    const longStatement = `select '${'x'.repeat(2_000)}'::text as long`
    const transaction = db.begin(async (tx) => {
      await tx`select 1 as one`
      await relay!.down()
      await settle()
      // The connection's close already failed the transaction (below); its callback still holds the handle and
      // writes a short statement, which the driver buffers for a setImmediate that finds no socket.
      const short = await tx`select 2 as two`.then(
        () => 'answered',
        (error: { code?: string }) => error.code,
      )
      // One over 1 KB is written at once: refused too, and its connection is not parked where nothing reconnects it.
      const long = await tx.unsafe(longStatement).then(
        () => 'answered',
        (error: { code?: string }) => error.code,
      )
      late = [short, long]
    })
    await expect(transaction).rejects.toMatchObject({ code: 'CONNECTION_CLOSED' })
    await expect.poll(() => late, { timeout: 5_000 }).toEqual(['CONNECTION_CLOSED', 'CONNECTION_CLOSED'])
    await relay!.up()
    // The pool's one connection connects again and answers.
    expect((await db.unsafe(longStatement))[0]?.long).toHaveLength(2_000)
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
