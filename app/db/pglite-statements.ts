import '@tanstack/react-start/server-only'
import { type PGlite, parse, protocol, type QueryOptions, type Results } from '@electric-sql/pglite'
import { LRUCache } from 'lru-cache'

const { serialize } = protocol

interface Statement {
  name: string
  /** Parameter type ids, as PostgreSQL inferred them; they choose PGlite's serializer for each value. */
  paramTypes: number[]
}

const wrapped = new WeakSet<PGlite>()

/** SQLSTATEs that mean a cached statement is gone or no longer fits the schema: prepare it again, once. */
const STALE_STATEMENT = new Set(['26000', '0A000'])

function bytes(parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, part) => n + part.length, 0))
  let at = 0
  for (const part of parts) {
    out.set(part, at)
    at += part.length
  }
  return out
}

/**
 * Makes `client.query` keep a named prepared statement per SQL text (docs/decisions/0013).
 *
 * PGlite's own query() sends every statement unnamed, so PostgreSQL parses and plans it on each call, and it
 * makes six separate trips into WASM (Parse, Describe, Bind, Describe, Execute, Sync). With the app's small,
 * repeated statements that planning is most of the database time: a class search on the demo data went from
 * 2.5 to 1.3 ms. Here a statement is prepared once; PostgreSQL's plan cache then decides as it does for any
 * driver that prepares (node-postgres, postgres.js): custom plans for the first five runs, a generic one after
 * that only when it is estimated to cost no more. Each run is Bind…Sync in one trip.
 *
 * Same locks, results and errors as query(): it takes PGlite's transaction and query locks, writes to disk
 * outside transactions, parses rows with the same parsers and adds the query to errors. Calls with options this
 * does not handle (blobs, parameter types, serializers, notices) go to PGlite's query() unchanged; transactions
 * run their statements through their own `tx.query`, also unchanged. At most `max` statements are kept; older
 * ones are closed on the next call.
 */
export function cacheStatements(client: PGlite, options: { max?: number } = {}): void {
  // Twice would take the locks twice, inside each other.
  if (wrapped.has(client)) return
  wrapped.add(client)
  const plainQuery = client.query.bind(client)
  const retired: string[] = []
  const statements = new LRUCache<string, Statement>({
    max: options.max ?? 256,
    dispose: (statement) => retired.push(statement.name),
  })
  let counter = 0

  // Runs with PGlite's locks held.
  async function run<T>(text: string, params: unknown[], queryOptions?: QueryOptions): Promise<Results<T>> {
    const closes = retired.splice(0).map((name) => serialize.close({ type: 'S', name }))
    let statement = statements.get(text)
    if (!statement) {
      const name = `s${++counter}`
      const described = await client.execProtocol(
        bytes([
          ...closes,
          serialize.parse({ name, text }),
          serialize.describe({ type: 'S', name }),
          serialize.sync(),
        ]),
        { syncToFs: false },
      )
      statement = { name, paramTypes: parse.parseDescribeStatementResults(described.messages) }
      statements.set(text, statement)
      closes.length = 0
    }
    const types = statement.paramTypes
    const values = params.map((value, i) => {
      if (value === null || value === undefined) return null
      const serializer = client.serializers[types[i] ?? 0]
      return serializer ? serializer(value) : String(value)
    })
    const result = await client.execProtocol(
      bytes([
        ...closes,
        serialize.bind({ statement: statement.name, values }),
        serialize.describe({ type: 'P' }),
        serialize.execute({}),
        serialize.sync(),
      ]),
      { syncToFs: false },
    )
    return parse.parseResults(result.messages, client.parsers, queryOptions)[0] as Results<T>
  }

  const query = async <T>(text: string, params: unknown[] = [], queryOptions?: QueryOptions) => {
    if (queryOptions?.blob || queryOptions?.paramTypes || queryOptions?.serializers || queryOptions?.onNotice)
      return plainQuery<T>(text, params, queryOptions)
    await client._checkReady()
    return client._runExclusiveTransaction(() =>
      client._runExclusiveQuery(async () => {
        try {
          try {
            return await run<T>(text, params, queryOptions)
          } catch (err) {
            if (!STALE_STATEMENT.has((err as { code?: string }).code ?? '')) throw err
            statements.delete(text)
            return await run<T>(text, params, queryOptions)
          }
        } catch (err) {
          throw Object.assign(err as object, { query: text, params, queryOptions })
        } finally {
          if (!client.isInTransaction()) await client.syncToFs()
        }
      }),
    )
  }
  client.query = query as PGlite['query']
}
