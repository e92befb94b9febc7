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

/**
 * A statement whose text starts with this comment is not kept prepared: PostgreSQL plans it for its values on every
 * run. For a statement whose best plan depends on the values, where the plan cache would settle on a generic plan
 * many times slower than planning costs (the search's relevance walk at 100k classes, docs/decisions/0026).
 */
export const PLANNED_PER_RUN = '/* planned per run */'

/** A cached statement that PostgreSQL no longer has, or whose result no longer fits the schema. */
function isStale(err: unknown): boolean {
  const { code, message } = err as { code?: string; message?: string }
  return (
    code === '26000' || (code === '0A000' && /cached plan must not change result type/.test(message ?? ''))
  )
}

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
 * does not handle (blobs, parameter types, serializers, notices) and statements marked PLANNED_PER_RUN go to
 * PGlite's query() unchanged; transactions run their statements through their own `tx.query`, also unchanged. At
 * most `max` statements are kept; older ones are closed on the next call.
 */
export function cacheStatements(client: PGlite, options: { max?: number } = {}): void {
  // One cache per client: a second call would only wrap the wrapper.
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
      const name = `manabi_${++counter}`
      const described = await client.execProtocolStream(
        bytes([
          ...closes,
          serialize.parse({ name, text }),
          serialize.describe({ type: 'S', name }),
          serialize.sync(),
        ]),
        { syncToFs: false },
      )
      statement = { name, paramTypes: parse.parseDescribeStatementResults(described) }
      statements.set(text, statement)
      closes.length = 0
    }
    const types = statement.paramTypes
    const values = params.map((value, i) => {
      if (value === null || value === undefined) return null
      const serializer = client.serializers[types[i] ?? 0]
      return serializer ? serializer(value) : String(value)
    })
    const messages = await client.execProtocolStream(
      bytes([
        ...closes,
        serialize.bind({ statement: statement.name, values }),
        serialize.describe({ type: 'P' }),
        serialize.execute({}),
        serialize.sync(),
      ]),
      { syncToFs: false },
    )
    const result = parse.parseResults(messages, ...parsing(queryOptions))[0] as Results<T>
    // As query(): written to disk after each statement outside a transaction, and only when it succeeded.
    if (!client.isInTransaction()) await client.syncToFs()
    return result
  }

  /**
   * The parsers and options for parseResults. Given parsers of its own (drizzle passes nine, for timestamps and
   * intervals, on every statement), parseResults spreads them over the client's 318 into a new object for every
   * statement: ~55 µs each, more than parsing the rows of a page of cards. An object that holds only the given
   * ones, with the client's parsers as its prototype, finds the same parser for every type and takes ~1 µs to make.
   * It is kept for the options object it was made for: a prepared drizzle statement passes the same one every run.
   */
  const madeFor = new WeakMap<QueryOptions, [PGlite['parsers'], QueryOptions]>()
  const parsing = (queryOptions?: QueryOptions): [PGlite['parsers'], QueryOptions | undefined] => {
    if (!queryOptions?.parsers) return [client.parsers, queryOptions]
    let made = madeFor.get(queryOptions)
    if (!made) {
      made = [
        Object.assign(Object.create(client.parsers), queryOptions.parsers),
        { ...queryOptions, parsers: undefined },
      ]
      madeFor.set(queryOptions, made)
    }
    return made
  }

  const query = async <T>(text: string, params: unknown[] = [], queryOptions?: QueryOptions) => {
    const plain =
      queryOptions?.blob ||
      queryOptions?.paramTypes ||
      queryOptions?.serializers ||
      queryOptions?.onNotice ||
      text.startsWith(PLANNED_PER_RUN) ||
      text.includes('/dev/blob') // COPY to or from a blob: query() handles the blob
    if (plain) return plainQuery<T>(text, params, queryOptions)
    await client._checkReady()
    return client._runExclusiveTransaction(() =>
      client._runExclusiveQuery(async () => {
        try {
          try {
            return await run<T>(text, params, queryOptions)
          } catch (err) {
            // Inside a transaction block the failure has aborted it: a second try could only fail again.
            if (!isStale(err) || client.isInTransaction()) throw err
            statements.delete(text)
            return await run<T>(text, params, queryOptions)
          }
        } catch (err) {
          throw Object.assign(err as object, { query: text, params, queryOptions })
        }
      }),
    )
  }
  client.query = query as PGlite['query']
}
