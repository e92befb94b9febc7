import { spawn } from 'node:child_process'
import { mkdtempSync, readFileSync, statSync, utimesSync, writeFileSync } from 'node:fs'
import { hostname, tmpdir } from 'node:os'
import path from 'node:path'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { DataDirError, HEARTBEAT_MS, LOCK_FILE, lockDataDir, prepareDataDir, STALE_MS } from './data-dir'

const dirs: string[] = []
const fresh = () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'manabi-datadir-'))
  dirs.push(dir)
  return dir
}
const locks: { release(): void }[] = []
afterEach(() => {
  for (const l of locks.splice(0)) l.release()
})

describe('prepareDataDir', () => {
  it('creates a missing folder', () => {
    const dir = path.join(fresh(), 'a', 'b')
    expect(prepareDataDir(dir)).toBe(path.resolve(dir))
  })
  it('names DATA_DIR and the fix when a file stands in its place', () => {
    const file = path.join(fresh(), 'file')
    writeFileSync(file, 'x')
    expect(() => prepareDataDir(file)).toThrow(DataDirError)
    expect(() => prepareDataDir(file)).toThrow(
      /^Configuration error: DATA_DIR=".*file" is a file, not a folder/,
    )
    expect(() => prepareDataDir(path.join(file, 'below'))).toThrow(/DATA_DIR=.* is a file, not a folder/)
  })
})

describe('lockDataDir', () => {
  it('writes this process into the lock and removes it on release', () => {
    const dir = fresh()
    const lock = lockDataDir(dir)
    const owner = JSON.parse(readFileSync(path.join(dir, LOCK_FILE), 'utf8'))
    expect(owner).toMatchObject({ pid: process.pid, host: hostname() })
    lock.release()
    expect(() => readFileSync(path.join(dir, LOCK_FILE))).toThrow()
  })

  it('refuses a folder held by another running Node process, naming it', async () => {
    const dir = fresh()
    // A live Node process that holds the lock (another app instance).
    const holder = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 30000)'], { stdio: 'ignore' })
    try {
      await new Promise((r) => holder.once('spawn', r))
      writeFileSync(
        path.join(dir, LOCK_FILE),
        JSON.stringify({ pid: holder.pid, host: hostname(), startedAt: '2026-01-01T00:00:00.000Z' }),
      )
      expect(() => lockDataDir(dir)).toThrow(new RegExp(`in use by another running app \\(pid ${holder.pid}`))
      // The holder's lock is untouched.
      expect(JSON.parse(readFileSync(path.join(dir, LOCK_FILE), 'utf8')).pid).toBe(holder.pid)
    } finally {
      holder.kill('SIGKILL')
    }
  })

  it('takes over the lock of a process that is gone (kill -9, power loss)', async () => {
    const dir = fresh()
    const gone = spawn(process.execPath, ['-e', ''], { stdio: 'ignore' })
    await new Promise((r) => gone.once('exit', r))
    writeFileSync(
      path.join(dir, LOCK_FILE),
      JSON.stringify({ pid: gone.pid, host: hostname(), startedAt: '2026-01-01T00:00:00.000Z' }),
    )
    locks.push(lockDataDir(dir))
    expect(JSON.parse(readFileSync(path.join(dir, LOCK_FILE), 'utf8')).pid).toBe(process.pid)
  })

  it('takes over a half-written lock file', () => {
    const dir = fresh()
    writeFileSync(path.join(dir, LOCK_FILE), '{"pid":')
    locks.push(lockDataDir(dir))
    expect(JSON.parse(readFileSync(path.join(dir, LOCK_FILE), 'utf8')).pid).toBe(process.pid)
  })

  it('refuses a lock held on another host, where liveness cannot be checked', () => {
    const dir = fresh()
    writeFileSync(
      path.join(dir, LOCK_FILE),
      JSON.stringify({ pid: 1, host: 'some-other-host', startedAt: '2026-01-01T00:00:00.000Z' }),
    )
    expect(() => lockDataDir(dir)).toThrow(/pid 1 on some-other-host/)
  })

  it('tells apart another container sharing the folder under the same hostname (both pid 1): its heartbeat decides', () => {
    const dir = fresh()
    const file = path.join(dir, LOCK_FILE)
    // Our own pid and host, but another pid namespace: not this process, and its pid cannot be asked from here.
    const other = {
      pid: process.pid,
      host: hostname(),
      startedAt: '2026-01-01T00:00:00.000Z',
      ns: 'pid:[1]',
      beats: true,
    }
    writeFileSync(file, JSON.stringify(other))
    expect(() => lockDataDir(dir)).toThrow(/in use by another running app .*not renewed for 120 s/)
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual(other)
    // Its heartbeat stopped (a container killed): taken over.
    const old = new Date(Date.now() - STALE_MS - 1_000)
    utimesSync(file, old, old)
    locks.push(lockDataDir(dir))
    expect(JSON.parse(readFileSync(file, 'utf8'))).toMatchObject({ pid: process.pid, beats: true })
  })

  it('keeps its own lock fresh while held', () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval', 'Date'] })
    try {
      const dir = fresh()
      const file = path.join(dir, LOCK_FILE)
      locks.push(lockDataDir(dir))
      const old = new Date(Date.now() - STALE_MS - 1_000)
      utimesSync(file, old, old)
      vi.advanceTimersByTime(HEARTBEAT_MS)
      expect(Date.now() - statSync(file).mtimeMs).toBeLessThan(2_000)
    } finally {
      vi.useRealTimers()
    }
  })

  it('stops its heartbeat once another holder took the lock over (this process was paused too long)', () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval', 'Date'] })
    try {
      const dir = fresh()
      const file = path.join(dir, LOCK_FILE)
      locks.push(lockDataDir(dir))
      writeFileSync(
        file,
        JSON.stringify({
          pid: 1,
          host: 'other',
          startedAt: '2026-12-01T00:00:00.000Z',
          ns: 'pid:[2]',
          beats: true,
        }),
      )
      const old = new Date(Date.now() - STALE_MS - 1_000)
      utimesSync(file, old, old)
      vi.advanceTimersByTime(3 * HEARTBEAT_MS)
      // Untouched: still as stale as it was (file systems keep mtime to their own precision).
      expect(Math.abs(statSync(file).mtimeMs - old.getTime())).toBeLessThan(1_000)
    } finally {
      vi.useRealTimers()
    }
  })

  it('is re-entrant within one process', () => {
    const dir = fresh()
    const a = lockDataDir(dir)
    locks.push(a)
    expect(lockDataDir(dir)).toBe(a)
  })
})
