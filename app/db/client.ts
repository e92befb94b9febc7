import '@tanstack/react-start/server-only'
import { existsSync, mkdirSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import type { PGlite } from '@electric-sql/pglite'
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core'
import { DataDirError, type DataDirLock, lockDataDir, prepareDataDir } from './data-dir'
import { keepWalBounded } from './pglite-checkpoint'
import { cacheStatements } from './pglite-statements'
import { queryCountLogger } from './query-count'
import { configuredReceiptIssuer, stampReceiptIssuers } from './receipt-issuers'
import * as schema from './schema'

export type Schema = typeof schema
/** The one database type the services use, whichever driver is behind it. */
export type Db = PgDatabase<PgQueryResultHKT, Schema>
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0]
/** Either the database or a transaction: what a service function that may run inside a transaction takes. */
export type DbOrTx = Db | Tx

export interface Database {
  db: Db
  kind: 'pglite' | 'postgres'
  /** Runs multi-statement SQL without parameters (VACUUM, DROP SCHEMA …). */
  exec(sql: string): Promise<void>
  close(): Promise<void>
}

export interface OpenDatabaseOptions {
  /** Folder for the embedded database (PGlite lives in `<dataDir>/pglite`). Ignored when databaseUrl is set. */
  dataDir?: string
  /** A PostgreSQL connection string; when set, PostgreSQL is used instead of PGlite. */
  databaseUrl?: string
  /** An already opened PGlite instance (tests clone a template into one). */
  pglite?: PGlite
  /** Apply pending migrations (default true). */
  migrate?: boolean
  /**
   * Runs once after migrating (seeding). On PostgreSQL it runs on the migration connection under the same
   * advisory lock, so instances starting together never seed twice.
   */
  setup?: (db: Db) => Promise<void>
  /** PostgreSQL statement timeout of the app's connections (default PG_STATEMENT_TIMEOUT_MS; 0: none, bulk scripts). */
  statementTimeoutMs?: number
}

export class DatabaseError extends Error {
  override name = 'DatabaseError'
}

/** Seconds a client should wait before retrying while the database is away (Retry-After). */
export const DATABASE_RETRY_AFTER_S = 5

const UNAVAILABLE_NODE_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENOTFOUND',
  'EPIPE',
  // postgres.js
  'CONNECT_TIMEOUT',
  'CONNECTION_CLOSED',
  'CONNECTION_ENDED',
  'CONNECTION_DESTROYED',
])

/**
 * True when an error means the database is away or overloaded (not that the request was wrong): the caller
 * answers 503 with Retry-After. SQLSTATE classes 08 (connection), 53 (resources), 57P0x (shutdown, cannot
 * connect now) and 57014 (statement timeout), and the drivers' socket errors, anywhere in the cause chain.
 */
export function isDatabaseUnavailable(err: unknown): boolean {
  for (let e: unknown = err, depth = 0; e && depth < 6; e = (e as { cause?: unknown }).cause, depth++) {
    if (e instanceof DatabaseError) return true
    const code = (e as { code?: unknown }).code
    if (typeof code !== 'string') continue
    if (UNAVAILABLE_NODE_CODES.has(code)) return true
    if (/^(08|53)[0-9A-Z]{3}$/.test(code) || /^57P0[1-4]$/.test(code) || code === '57014') return true
  }
  return false
}

/** Where the generated migrations are: beside this file in the sources, or under the working directory once bundled. */
export function migrationsFolder(): string {
  const candidates = [
    path.join(path.dirname(fileURLToPath(import.meta.url)), 'migrations'),
    path.resolve(process.cwd(), 'app/db/migrations'),
  ]
  const found = candidates.find((dir) => existsSync(path.join(dir, 'meta', '_journal.json')))
  if (!found) throw new DatabaseError(`Database migrations not found (looked in ${candidates.join(', ')})`)
  return found
}

function redact(url: string): string {
  try {
    const u = new URL(url)
    if (u.password) u.password = '***'
    return u.toString()
  } catch {
    return '(unparsable DATABASE_URL)'
  }
}

function errorText(err: unknown): string {
  return err instanceof Error ? err.message : String(err)
}

async function openPglite(options: OpenDatabaseOptions): Promise<Database> {
  const { PGlite } = await import('@electric-sql/pglite')
  const { drizzle } = await import('drizzle-orm/pglite')
  const where = options.pglite ? 'the given PGlite instance' : path.join(options.dataDir ?? '.data', 'pglite')
  let client: PGlite
  let lock: DataDirLock | undefined
  try {
    if (options.pglite) {
      client = options.pglite
    } else {
      // One process per data folder: a second writer would corrupt it (DataDirError names the holder).
      const dataDir = prepareDataDir(options.dataDir ?? '.data')
      lock = lockDataDir(dataDir)
      const dir = path.join(dataDir, 'pglite')
      mkdirSync(dir, { recursive: true })
      client = await PGlite.create(dir)
    }
  } catch (err) {
    if (err instanceof DataDirError) throw err
    lock?.release()
    throw new DatabaseError(
      `Could not open the embedded database in ${where}: ${errorText(err)}. ` +
        'Check that DATA_DIR is a writable folder that no other running app is using.',
      { cause: err },
    )
  }
  // Named prepared statements: PostgreSQL plans each of the app's statements once, not on every call (0013).
  cacheStatements(client)
  // A data folder's WAL stays bounded (pglite-checkpoint.ts); a given instance (tests) is its owner's business.
  const stopCheckpoints = options.pglite ? undefined : keepWalBounded(client)
  const db = drizzle({ client, schema, logger: queryCountLogger }) as unknown as Db
  const database: Database = {
    db,
    kind: 'pglite',
    exec: async (sql) => {
      await client.exec(sql)
    },
    close: async () => {
      stopCheckpoints?.()
      if (!client.closed) await client.close()
      lock?.release()
    },
  }
  if (options.migrate !== false) {
    try {
      const { migrate } = await import('drizzle-orm/pglite/migrator')
      await migrate(db as never, { migrationsFolder: migrationsFolder() })
    } catch (err) {
      await database.close().catch(() => {})
      throw new DatabaseError(`Could not migrate the embedded database in ${where}: ${errorText(err)}`, {
        cause: err,
      })
    }
  }
  if (options.setup) {
    try {
      await options.setup(db)
    } catch (err) {
      await database.close().catch(() => {})
      throw err
    }
  }
  return database
}

/**
 * Bounds on every PostgreSQL round trip, so that a page answers (or fails with 503) within about 5 s when the
 * server is away or stuck: connecting, a statement (lock waits included) and an idle open transaction.
 */
export const PG_CONNECT_TIMEOUT_S = 3
export const PG_STATEMENT_TIMEOUT_MS = 4_000
export const PG_IDLE_IN_TRANSACTION_TIMEOUT_MS = 10_000
/**
 * Seconds a pooled connection that failed waits before connecting again. postgres.js's default grows with every
 * failure to 20 s, and a query queued on such a connection waits it out: a few minutes into an outage, pages took
 * 9 s to say 503, and after it, as long to come back. Short and bounded, so a request fails (or succeeds) within
 * the 5 s budget; attempts are made only for queued queries, so a server that is away is not flooded.
 */
export function pgReconnectDelayS(failures: number): number {
  return Math.min(0.05 * 2 ** failures, 0.5)
}
/** Taken while migrating and seeding, so several instances starting at once do it one after another. */
const SETUP_LOCK_ID = 726_354_101

async function openPostgres(url: string, options: OpenDatabaseOptions): Promise<Database> {
  const { default: postgres } = await import('postgres')
  const { drizzle } = await import('drizzle-orm/postgres-js')
  if (options.migrate !== false || options.setup) {
    // Migrations and the first seed may take longer than a web statement may: their own connection, no
    // statement timeout, under an advisory lock held for the session.
    const setup = postgres(url, { max: 1, onnotice: () => {}, connect_timeout: PG_CONNECT_TIMEOUT_S })
    try {
      await setup`select pg_advisory_lock(${SETUP_LOCK_ID})`
    } catch (err) {
      await setup.end({ timeout: 1 }).catch(() => {})
      throw new DatabaseError(
        `Could not connect to PostgreSQL at ${redact(url)}: ${errorText(err)}. Check DATABASE_URL.`,
        { cause: err },
      )
    }
    try {
      const setupDb = drizzle({ client: setup, schema }) as unknown as Db
      if (options.migrate !== false) {
        try {
          const { migrate } = await import('drizzle-orm/postgres-js/migrator')
          await migrate(setupDb as never, { migrationsFolder: migrationsFolder() })
        } catch (err) {
          throw new DatabaseError(`Could not migrate PostgreSQL at ${redact(url)}: ${errorText(err)}`, {
            cause: err,
          })
        }
      }
      await options.setup?.(setupDb)
    } finally {
      await setup.end({ timeout: 5 }).catch(() => {})
    }
  }
  const client = postgres(url, {
    max: 10,
    onnotice: () => {},
    connect_timeout: PG_CONNECT_TIMEOUT_S,
    backoff: pgReconnectDelayS,
    connection: {
      statement_timeout: options.statementTimeoutMs ?? PG_STATEMENT_TIMEOUT_MS,
      idle_in_transaction_session_timeout: PG_IDLE_IN_TRANSACTION_TIMEOUT_MS,
      // Short web queries: starting parallel workers costs more than it saves and takes cores from concurrent
      // requests (a capped search count went from 13 to 28 ms in a Gather). Per connection, so the server's
      // other users keep their settings.
      max_parallel_workers_per_gather: '0',
    },
  })
  const database: Database = {
    db: drizzle({ client, schema, logger: queryCountLogger }) as unknown as Db,
    kind: 'postgres',
    exec: async (sql) => {
      await client.unsafe(sql).simple()
    },
    close: () => client.end({ timeout: 5 }),
  }
  try {
    await client`select 1`
  } catch (err) {
    await database.close().catch(() => {})
    throw new DatabaseError(
      `Could not connect to PostgreSQL at ${redact(url)}: ${errorText(err)}. Check DATABASE_URL.`,
      { cause: err },
    )
  }
  return database
}

/** Opens (and by default migrates) a database: PostgreSQL when `databaseUrl` is set, PGlite otherwise. */
export function openDatabase(options: OpenDatabaseOptions = {}): Promise<Database> {
  return options.databaseUrl && !options.pglite
    ? openPostgres(options.databaseUrl, options)
    : openPglite(options)
}

let pending: Promise<Database> | undefined

/**
 * The app's database: opened, migrated and (when empty) seeded with demo content on first use.
 * Concurrent first callers share one promise; a failure is not cached, so the next call tries again.
 */
export function getDatabase(): Promise<Database> {
  pending ??= (async () => {
    const { getConfig } = await import('../server/config')
    const config = getConfig()
    return openDatabase({
      dataDir: config.dataDir,
      databaseUrl: config.databaseUrl,
      setup: async (db) => {
        try {
          const { alignEmbeddedIssuer, ensureDemoOperator, seedIfEmpty } = await import('./seed')
          const issuer = `${config.siteOrigin}/idp`
          const seeded = await seedIfEmpty(db, {
            issuer,
            now: new Date(),
            commissionRate: config.commissionRate,
            demo: config.seedDemo,
          })
          if (!seeded && !config.auth0) {
            await alignEmbeddedIssuer(db, issuer)
            if (config.seedDemo) await ensureDemoOperator(db, issuer, new Date())
          }
        } catch (err) {
          throw new DatabaseError(`Could not create the demo content: ${errorText(err)}`, { cause: err })
        }
        await stampReceiptIssuers(db, configuredReceiptIssuer(config))
      },
    })
  })()
  pending.catch(() => {
    pending = undefined
  })
  return pending
}

export async function getDb(): Promise<Db> {
  return (await getDatabase()).db
}

export async function closeDb(): Promise<void> {
  const current = pending
  pending = undefined
  if (current) await (await current.catch(() => undefined))?.close()
}
