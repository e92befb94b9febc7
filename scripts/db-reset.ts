/**
 * Drops every table, migrates and seeds the demo content:  npm run db:reset
 * Uses DATABASE_URL when set, otherwise the embedded database in DATA_DIR. Stop the app first: PGlite is one process.
 */
import { openDatabase } from '../app/db/client'
import { seedDemoContent } from '../app/db/seed'
import { getConfig } from '../app/server/config'

const config = getConfig()
const target = config.databaseUrl ? 'PostgreSQL (DATABASE_URL)' : `PGlite in ${config.dataDir}/pglite`
console.log(`Resetting ${target}…`)

try {
  const raw = await openDatabase({ dataDir: config.dataDir, databaseUrl: config.databaseUrl, migrate: false })
  // The app's tables live in `public`; drizzle keeps its migration journal in the `drizzle` schema.
  await raw.exec(
    'DROP SCHEMA IF EXISTS drizzle CASCADE; DROP SCHEMA IF EXISTS public CASCADE; CREATE SCHEMA public;',
  )
  await raw.close()

  const database = await openDatabase({
    dataDir: config.dataDir,
    databaseUrl: config.databaseUrl,
    statementTimeoutMs: 0,
  })
  const started = Date.now()
  await seedDemoContent(database.db, {
    issuer: `${config.siteOrigin}/idp`,
    now: new Date(),
    commissionRate: config.commissionRate,
  })
  if (database.kind === 'pglite') await database.exec('VACUUM ANALYZE')
  await database.close()
  console.log(
    `Done: migrated and seeded in ${Date.now() - started} ms (demo issuer ${config.siteOrigin}/idp).`,
  )
} catch (err) {
  console.error(err instanceof Error ? err.message : err)
  process.exit(1)
}
