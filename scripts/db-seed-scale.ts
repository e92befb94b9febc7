/**
 * Adds N synthetic published classes with three schedules each, then VACUUM ANALYZE (PGlite never
 * autovacuums):  npm run db:seed:scale -- 10000
 * For search and listing benchmarks; the demo content must exist (run the app once, or npm run db:reset).
 * On PostgreSQL the role must be a superuser: each batch turns the row triggers off for its own transaction
 * (session_replication_role, app/db/seed/scale.ts) and fails as a whole where it may not.
 */
import { openDatabase } from '../app/db/client'
import { seedScale } from '../app/db/seed/scale'
import { stopAnalyzer } from '../app/jobs/analyzer.server'
import { fillAllRuby } from '../app/jobs/ruby-fill.server'
import { getConfig } from '../app/server/config'

const n = Number(process.argv[2] ?? 1000)
if (!Number.isInteger(n) || n < 1 || n > 1_000_000) {
  console.error('Usage: npm run db:seed:scale -- <number of classes, 1..1000000>')
  process.exit(1)
}

const config = getConfig()
try {
  const database = await openDatabase({
    dataDir: config.dataDir,
    databaseUrl: config.databaseUrl,
    statementTimeoutMs: 0,
  })
  const started = Date.now()
  const added = await seedScale(database.db, { count: n, now: new Date() })
  // Their furigana, read here as the app's ruby.fill job would after a start (docs/decisions/0028): a benchmark then
  // measures pages, not that job catching up in the background.
  await fillAllRuby(database.db)
  await stopAnalyzer()
  await database.exec('VACUUM ANALYZE')
  await database.close()
  console.log(`Added ${added} classes (${added * 3} schedules) in ${Date.now() - started} ms.`)
} catch (err) {
  console.error(err instanceof Error ? err.message : err)
  process.exit(1)
}
