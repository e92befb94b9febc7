import { randomUUID } from 'node:crypto'
import { rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { TestProject } from 'vitest/node'
import { TEST_ISSUER, type TestDbTemplate } from './constants'
import { adminClient, buildSeededDatabase, databaseUrlFor } from './test-db'

/**
 * Builds ONE migrated and seeded database per test run, which every test file then copies:
 * PGlite — a data-directory dump (a fresh PGlite costs ~4 s; loading a dump far less);
 * PostgreSQL (TEST_DATABASE_URL) — a template database for `CREATE DATABASE … TEMPLATE`.
 */
export default async function setup(project: TestProject) {
  const now = new Date()
  const url = process.env.TEST_DATABASE_URL
  let template: TestDbTemplate
  let cleanup: () => Promise<void>
  if (url) {
    const name = `manabi_tpl_${randomUUID().slice(0, 8)}`
    const admin = adminClient(url)
    await admin.unsafe(`create database "${name}"`)
    const database = await buildSeededDatabase({ databaseUrl: databaseUrlFor(url, name) }, now)
    await database.close()
    template = { kind: 'postgres', template: name, now: now.toISOString() }
    cleanup = async () => {
      await admin.unsafe(`drop database if exists "${name}" with (force)`)
      await admin.end()
    }
  } else {
    const database = await buildSeededDatabase({}, now)
    const pglite = database.pglite!
    const dump = await pglite.dumpDataDir('gzip')
    await database.close()
    const dumpPath = join(tmpdir(), `manabi-test-db-${randomUUID().slice(0, 8)}.tar.gz`)
    writeFileSync(dumpPath, Buffer.from(await dump.arrayBuffer()))
    template = { kind: 'pglite', dumpPath, now: now.toISOString() }
    cleanup = async () => rmSync(dumpPath, { force: true })
  }
  console.log(`[integration] ${template.kind} template seeded for ${TEST_ISSUER}`)
  project.provide('manabiTestDb', template)
  return cleanup
}
