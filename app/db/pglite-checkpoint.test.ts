import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { PGlite } from '@electric-sql/pglite'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { CHECKPOINT_AFTER_BYTES, checkpointIfDue, keepWalBounded } from './pglite-checkpoint'

let dir: string
let client: PGlite

const walMb = () =>
  readdirSync(path.join(dir, 'pg_wal'))
    .map((f) => statSync(path.join(dir, 'pg_wal', f)))
    .filter((s) => s.isFile())
    .reduce((sum, s) => sum + s.size, 0) /
  2 ** 20

const writeMb = (n: number) =>
  // ~1 MB of rows per 1,000 (each ~960 bytes of text).
  client.query(`insert into t (body) select repeat(md5(g::text), 30) from generate_series(1, ${n * 1000}) g`)

// A PGlite in a folder (WASM compile and initdb): seconds on a busy machine.
beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'pglite-wal-'))
  client = await PGlite.create(dir)
  await client.exec('create table t (id serial primary key, body text)')
}, 60_000)
afterAll(async () => {
  await client.close()
  rmSync(dir, { recursive: true, force: true })
})

describe('checkpointIfDue (PGlite never checkpoints by itself)', () => {
  it('leaves a small amount of new WAL alone', async () => {
    await checkpointIfDue(client, 1)
    await writeMb(1)
    expect(await checkpointIfDue(client, 16 * 2 ** 20)).toBe(false)
  })

  it('checkpoints past the threshold, so the WAL stays bounded however much is written', async () => {
    const redo = async () =>
      (await client.query<{ lsn: string }>('select redo_lsn::text as lsn from pg_control_checkpoint()'))
        .rows[0]!.lsn
    let checkpoints = 0
    for (let i = 0; i < 8; i++) {
      const before = await redo()
      await writeMb(24)
      if (await checkpointIfDue(client, 16 * 2 ** 20)) {
        checkpoints++
        expect(await redo()).not.toBe(before)
      }
    }
    expect(checkpoints).toBe(8)
    // ~190 MB written; without the checkpoints every byte of it would still be in pg_wal.
    expect(walMb()).toBeLessThan(120)
  }, 120_000)
})

describe('keepWalBounded (what the embedded database runs)', () => {
  it('checks once a minute and checkpoints past 64 MB; stopped, it checks no more', async () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] })
    try {
      const redo = async () =>
        (await client.query<{ lsn: string }>('select redo_lsn::text as lsn from pg_control_checkpoint()'))
          .rows[0]!.lsn
      await checkpointIfDue(client, 1)
      const stop = keepWalBounded(client)
      await writeMb(Math.ceil(CHECKPOINT_AFTER_BYTES / 2 ** 20) + 8)
      const before = await redo()
      vi.advanceTimersByTime(60_000)
      await vi.waitFor(async () => expect(await redo()).not.toBe(before), { timeout: 30_000 })
      stop()
      await writeMb(80)
      const after = await redo()
      vi.advanceTimersByTime(120_000)
      expect(await redo()).toBe(after)
    } finally {
      vi.useRealTimers()
    }
  }, 120_000)
})
