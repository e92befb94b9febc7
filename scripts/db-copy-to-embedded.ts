/**
 * Copies every row of a PostgreSQL database of this app into the embedded database of DATA_DIR, replacing what it
 * held:  DATA_DIR=.data/x npm run db:copy-to-embedded -- postgres://…/manabi_bench_pages_scale
 *
 * For benchmarks of the embedded database at the 100k-class scale (issue 18): `db:seed:scale` writes row by row
 * through the triggers and reads every class's furigana, which takes hours on PGlite; the same data seeded once on
 * PostgreSQL copies over in minutes. Both must be at the same migration (the copy refuses otherwise). Triggers do
 * not fire during the copy (session_replication_role = replica): the rows arrive with what they derived already.
 * The app must not be running on DATA_DIR (the data folder's lock says so).
 */
import { spawnSync } from 'node:child_process'
import path from 'node:path'
import { PGlite } from '@electric-sql/pglite'
import postgres from 'postgres'
import { openDatabase } from '../app/db/client'
import { lockDataDir, prepareDataDir } from '../app/db/data-dir'
import { getConfig } from '../app/server/config'

const BATCH_ROWS = 20_000

const source = process.argv[2]
if (!source?.startsWith('postgres')) {
  console.error('Usage: DATA_DIR=<folder> npm run db:copy-to-embedded -- <postgres url>')
  process.exit(1)
}

const quote = (name: string) => `"${name.replaceAll('"', '""')}"`

/** A query's rows in COPY's text format, through psql (postgres.js's COPY stream stalled now and then). */
function copyOut(query: string): Buffer {
  const r = spawnSync(
    'psql',
    [source!, '-X', '-q', '-v', 'ON_ERROR_STOP=1', '-c', `\\copy (${query}) to stdout`],
    {
      maxBuffer: 2 ** 31 - 1,
    },
  )
  if (r.status !== 0) throw new Error(`psql: ${r.stderr.toString() || r.error?.message}`)
  return r.stdout
}

const started = Date.now()
const pg = postgres(source, { max: 1, onnotice: () => {} })
// Migrated by the app's own code; the folder's lock keeps a running app (or a second copy) out meanwhile.
const dataDir = prepareDataDir(getConfig().dataDir)
const lock = lockDataDir(dataDir)
const client = await PGlite.create(path.join(dataDir, 'pglite'))
const database = await openDatabase({ pglite: client, statementTimeoutMs: 0 })
try {
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
  // each batch commits and is checkpointed instead. A failed copy leaves the folder half filled: run it again.
  await client.exec('set session_replication_role = replica')
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
    // In id ranges, so that no single copy holds a whole large table in memory twice.
    for (let after = 0; ; ) {
      const where = hasId ? `where id > ${after} order by id limit ${BATCH_ROWS}` : ''
      const text = copyOut(`select ${list} from ${quote(table)} ${where}`)
      if (text.length === 0) break
      await client.query(`copy ${quote(table)} (${list}) from '/dev/blob'`, [], {
        // spawnSync's output is backed by a plain ArrayBuffer, never a shared one.
        blob: new Blob([text as Uint8Array<ArrayBuffer>]),
      })
      await client.exec('checkpoint')
      const rows = text.toString('utf8').split('\n').length - 1
      copied += rows
      if (!hasId || rows < BATCH_ROWS) break
      const [last] = await client
        .query<{ id: number }>(`select max(id) as id from ${quote(table)}`)
        .then((r) => r.rows)
      after = Number(last?.id ?? after)
    }
    if (copied > 0) console.log(`${table}: ${copied} rows`)
  }
  // Identity columns continue after the copied ids.
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
  console.log(
    `Copied ${tables.length} tables into ${dataDir} in ${Math.round((Date.now() - started) / 1000)} s.`,
  )
} catch (err) {
  console.error(err instanceof Error ? err.message : err)
  process.exitCode = 1
} finally {
  await database.close()
  lock.release()
  await pg.end()
}
