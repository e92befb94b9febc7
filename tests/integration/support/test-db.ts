import { randomUUID } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { PGlite } from '@electric-sql/pglite'
import { eq, sql } from 'drizzle-orm'
import postgres from 'postgres'
import { inject } from 'vitest'
import { type Database, openDatabase } from '../../../app/db/client'
import { jobs } from '../../../app/db/schema'
import { seedDemoContent } from '../../../app/db/seed'
import { stopAnalyzer } from '../../../app/jobs/analyzer.server'
import { fillAllRuby, RUBY_FILL_KIND } from '../../../app/jobs/ruby-fill.server'
import { TEST_ISSUER } from './constants'

export interface TestDatabase extends Database {
  /** The moment the demo content was seeded around; tests pin the API's clock to it. */
  now: Date
  pglite?: PGlite
  /** The PostgreSQL database's URL (PostgreSQL runs only). */
  url?: string
}

export const adminClient = (url: string) => postgres(url, { max: 1, onnotice: () => {} })

export function databaseUrlFor(serverUrl: string, database: string): string {
  const u = new URL(serverUrl)
  u.pathname = `/${database}`
  return u.toString()
}

/** A new, migrated and seeded database (PGlite in memory unless databaseUrl is given). */
export async function buildSeededDatabase(
  options: { databaseUrl?: string },
  now: Date,
): Promise<Database & { pglite?: PGlite }> {
  const pglite = options.databaseUrl ? undefined : await PGlite.create()
  const database = await openDatabase({ databaseUrl: options.databaseUrl, pglite, statementTimeoutMs: 0 })
  await seedDemoContent(database.db, { issuer: TEST_ISSUER, now })
  // As the app's first ruby.fill job leaves it: the demo content with its furigana, no job left.
  await fillAllRuby(database.db)
  await database.db.update(jobs).set({ finishedAt: sql`now()` }).where(eq(jobs.kind, RUBY_FILL_KIND))
  await stopAnalyzer()
  return { ...database, pglite }
}

/**
 * This test file's own database, copied from the run's template (see global-setup.ts), so files can run in
 * parallel and write freely. Without the global setup it builds one from scratch (slower, same result).
 */
export async function openTestDatabase(): Promise<TestDatabase> {
  const template = inject('manabiTestDb')
  const url = process.env.TEST_DATABASE_URL
  if (url) {
    const name = `manabi_test_${randomUUID().slice(0, 8)}`
    const admin = adminClient(url)
    const fromTemplate = template?.kind === 'postgres'
    await admin.unsafe(
      fromTemplate
        ? `create database "${name}" template "${template.template}"`
        : `create database "${name}"`,
    )
    const now = fromTemplate ? new Date(template.now) : new Date()
    const database = fromTemplate
      ? // Tests load thousands of rows in one statement: no web statement timeout (database-outage.test.ts
        // checks that timeout on its own connection).
        await openDatabase({ databaseUrl: databaseUrlFor(url, name), migrate: false, statementTimeoutMs: 0 })
      : await buildSeededDatabase({ databaseUrl: databaseUrlFor(url, name) }, now)
    return {
      ...database,
      now,
      url: databaseUrlFor(url, name),
      close: async () => {
        await database.close()
        await admin.unsafe(`drop database if exists "${name}" with (force)`)
        await admin.end()
      },
    }
  }
  if (template?.kind === 'pglite') {
    const blob = new Blob([readFileSync(template.dumpPath)])
    const pglite = await PGlite.create({ loadDataDir: blob })
    const database = await openDatabase({ pglite, migrate: false })
    return { ...database, now: new Date(template.now), pglite }
  }
  const now = new Date()
  return { ...(await buildSeededDatabase({}, now)), now }
}
