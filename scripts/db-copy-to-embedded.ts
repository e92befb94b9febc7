/**
 * Copies every row of a PostgreSQL database of this app into the embedded database of DATA_DIR, replacing what it
 * held:  DATA_DIR=.data/x npm run db:copy-to-embedded -- postgres://…/manabi_bench_pages_scale
 *
 * For benchmarks of the embedded database at the 100k-class scale (issue 18): both databases then hold the very same
 * classes, seeded once on PostgreSQL (`db:seed:scale` itself runs ~9–10 ms a class on PGlite, 100k in about a
 * quarter of an hour; docs/decisions/0026, fifth and ninth rounds).
 * - Both must be at the same migration (the copy refuses otherwise), and nothing may write to the source meanwhile
 *   (each batch is read on its own).
 * - Triggers and foreign keys do not fire during the copy (session_replication_role = replica): the rows arrive
 *   with what they derived already. Identities continue after the copied ids.
 * - The copy is built in a folder of its own beside the database and takes its place only when complete: a failed
 *   copy leaves DATA_DIR as it was. The app must not be running on DATA_DIR (the folder's lock says so).
 */
import { spawnSync } from 'node:child_process'
import { existsSync, mkdirSync, renameSync, rmSync } from 'node:fs'
import path from 'node:path'
import { PGlite } from '@electric-sql/pglite'
import postgres from 'postgres'
import { openDatabase } from '../app/db/client'
import { lockDataDir, prepareDataDir } from '../app/db/data-dir'

/** Rows per COPY for tables with an integer id, so that no copy holds a whole large table in memory twice. */
const BATCH_ROWS = Number(process.env.COPY_BATCH_ROWS ?? 20_000)

const source = process.argv[2]
// DATA_DIR is required: the default folder is the developer's own database.
if (!source?.startsWith('postgres') || !process.env.DATA_DIR || !(BATCH_ROWS > 0)) {
  console.error('Usage: DATA_DIR=<folder> npm run db:copy-to-embedded -- <postgres url>')
  process.exit(1)
}

const quote = (name: string) => `"${name.replaceAll('"', '""')}"`

// psql gets the connection from the environment, not its command line (where `ps` would show the password), and
// the settings pg_dump uses, so that its text is what PGlite reads back whatever the server's defaults are.
const url = new URL(source)
const psqlEnv = {
  ...process.env,
  PGHOST: decodeURIComponent(url.hostname),
  PGPORT: url.port || '5432',
  PGUSER: decodeURIComponent(url.username),
  PGPASSWORD: decodeURIComponent(url.password),
  PGDATABASE: decodeURIComponent(url.pathname.slice(1)),
  PGCLIENTENCODING: 'UTF8',
  PGOPTIONS: '-c DateStyle=ISO -c IntervalStyle=postgres -c TimeZone=UTC -c extra_float_digits=3',
}

/** A query's rows in COPY's text format, through psql (postgres.js's COPY stream stalled now and then). */
function copyOut(query: string): Buffer {
  const r = spawnSync('psql', ['-X', '-q', '-v', 'ON_ERROR_STOP=1', '-c', `\\copy (${query}) to stdout`], {
    env: psqlEnv,
    maxBuffer: 2 ** 31 - 1,
  })
  if (r.status !== 0) throw new Error(`psql: ${r.stderr?.toString() || r.error?.message}`)
  return r.stdout
}

/** Rows in a COPY text: one line each (newlines inside values are escaped). */
function lineCount(text: Buffer): number {
  let n = 0
  for (let at = text.indexOf(10); at !== -1; at = text.indexOf(10, at + 1)) n++
  return n
}

async function copyInto(client: PGlite, pg: postgres.Sql): Promise<number> {
  const lastMigration = `select hash from drizzle.__drizzle_migrations order by created_at desc limit 1`
  const [[from], { rows: to }] = await Promise.all([
    pg.unsafe(lastMigration),
    client.query<{ hash: string }>(lastMigration),
  ])
  if (from?.hash !== to[0]?.hash)
    throw new Error('the two databases are not at the same migration: start the app on each first')

  const tables = (
    await pg.unsafe<{ name: string }[]>(
      `select tablename as name from pg_tables where schemaname = 'public' order by tablename`,
    )
  ).map((t) => t.name)
  // Not one transaction: PGlite has no background checkpointer, so a long transaction's WAL would grow to gigabytes;
  // each batch commits and is checkpointed instead (the folder is a new one until the end).
  await client.exec('set session_replication_role = replica')
  // Rows a migration may have written (master data) are replaced by the source's.
  await client.exec(`truncate ${tables.map(quote).join(', ')} cascade`)
  for (const table of tables) {
    const attributes = await pg.unsafe<{ name: string; type: string }[]>(
      `select attname as name, atttypid::regtype::text as type from pg_attribute
       where attrelid = $1::regclass and attnum > 0 and not attisdropped and attgenerated = ''
       order by attnum`,
      [`public.${quote(table)}`],
    )
    const list = attributes.map((c) => quote(c.name)).join(', ')
    const hasId = attributes.some((c) => c.name === 'id' && (c.type === 'integer' || c.type === 'bigint'))
    let copied = 0
    for (let after: number | undefined; ; ) {
      const where = hasId
        ? `${after === undefined ? '' : `where id > ${after}`} order by id limit ${BATCH_ROWS}`
        : ''
      const text = copyOut(`select ${list} from ${quote(table)} ${where}`)
      if (text.length === 0) break
      await client.query(`copy ${quote(table)} (${list}) from '/dev/blob'`, [], {
        // spawnSync's output is backed by a plain ArrayBuffer, never a shared one.
        blob: new Blob([text as Uint8Array<ArrayBuffer>]),
      })
      await client.exec('checkpoint')
      const rows = lineCount(text)
      copied += rows
      if (!hasId || rows < BATCH_ROWS) break
      const [last] = await client
        .query<{ id: number }>(`select max(id) as id from ${quote(table)}`)
        .then((r) => r.rows)
      after = Number(last?.id)
    }
    if (copied > 0) console.log(`${table}: ${copied} rows`)
  }
  // Identity columns continue after the copied ids (the schema has no other sequences).
  const identities = await client.query<{ table: string; column: string }>(
    `select c.relname as table, a.attname as column from pg_attribute a join pg_class c on c.oid = a.attrelid
     join pg_namespace n on n.oid = c.relnamespace
     where n.nspname = 'public' and a.attidentity <> '' and c.relkind = 'r'`,
  )
  for (const { table, column } of identities.rows)
    await client.query(
      `select setval(pg_get_serial_sequence($1, $2), coalesce((select max(${quote(column)}) from ${quote(table)}), 0) + 1, false)`,
      [quote(table), column],
    )
  await client.exec('vacuum analyze')
  await client.exec('checkpoint')
  return tables.length
}

const started = Date.now()
const dataDir = prepareDataDir(process.env.DATA_DIR)
// A running app (or another copy) holds the folder: refused with its holder named, before anything is touched.
let lock: ReturnType<typeof lockDataDir>
try {
  lock = lockDataDir(dataDir)
} catch (err) {
  console.error(err instanceof Error ? err.message : err)
  process.exit(1)
}
const target = path.join(dataDir, 'pglite')
const building = path.join(dataDir, 'pglite.copying')
const pg = postgres(source, { max: 1, onnotice: () => {} })
try {
  rmSync(building, { recursive: true, force: true })
  mkdirSync(building, { recursive: true })
  const client = await PGlite.create(building)
  // Migrated by the app's own code.
  const database = await openDatabase({ pglite: client, statementTimeoutMs: 0 })
  let tables: number
  try {
    tables = await copyInto(client, pg)
  } finally {
    await database.close()
  }
  // The old database makes way only once the copy is complete.
  const replaced = `${target}.replaced`
  rmSync(replaced, { recursive: true, force: true })
  if (existsSync(target)) renameSync(target, replaced)
  renameSync(building, target)
  rmSync(replaced, { recursive: true, force: true })
  console.log(`Copied ${tables} tables into ${target} in ${Math.round((Date.now() - started) / 1000)} s.`)
} catch (err) {
  rmSync(building, { recursive: true, force: true })
  console.error(err instanceof Error ? err.message : err)
  process.exitCode = 1
} finally {
  lock.release()
  await pg.end()
}
