import {
  accessSync,
  closeSync,
  constants,
  mkdirSync,
  openSync,
  readFileSync,
  readlinkSync,
  statSync,
  unlinkSync,
  utimesSync,
  writeSync,
} from 'node:fs'
import { hostname } from 'node:os'
import path from 'node:path'

/**
 * The data folder (DATA_DIR) of the embedded database: checked once at start, and held by one process at a time.
 * PGlite is a single-writer database: two processes writing one folder corrupt it beyond repair, so the second
 * one must refuse to start (docs/decisions/0014).
 */

export class DataDirError extends Error {
  override name = 'DataDirError'
}

/** Creates DATA_DIR when missing; a file in its place or a read-only folder is a one-line configuration error. */
export function prepareDataDir(dir: string): string {
  const resolved = path.resolve(dir)
  try {
    mkdirSync(resolved, { recursive: true })
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code
    if (code === 'ENOTDIR' || code === 'EEXIST')
      throw new DataDirError(
        `Configuration error: DATA_DIR=${JSON.stringify(dir)} is a file, not a folder: point DATA_DIR at a folder (it is created when missing)`,
      )
    throw new DataDirError(
      `Configuration error: DATA_DIR=${JSON.stringify(dir)} cannot be created (${code ?? (error as Error).message}): choose a folder this user may write`,
    )
  }
  if (!statSync(resolved).isDirectory())
    throw new DataDirError(
      `Configuration error: DATA_DIR=${JSON.stringify(dir)} is a file, not a folder: point DATA_DIR at a folder (it is created when missing)`,
    )
  try {
    accessSync(resolved, constants.W_OK | constants.R_OK)
  } catch {
    throw new DataDirError(
      `Configuration error: DATA_DIR=${JSON.stringify(dir)} is not writable by this user: fix its permissions or choose another folder`,
    )
  }
  return resolved
}

interface LockOwner {
  pid: number
  host: string
  startedAt: string
  /** The process's pid namespace: two containers with one hostname (and both pid 1) are told apart by it. */
  ns?: string
  /** The holder touches the file every HEARTBEAT_MS: a lock not touched for STALE_MS has no live holder. */
  beats?: boolean
}

export const LOCK_FILE = 'app.lock'
export const HEARTBEAT_MS = 10_000
/** Long enough that a holder busy for a while (a large import blocking its event loop) is not taken for gone. */
export const STALE_MS = 120_000

function pidNamespace(): string | undefined {
  try {
    return readlinkSync('/proc/self/ns/pid')
  } catch {
    return undefined
  }
}

function mtimeMs(file: string): number | undefined {
  try {
    return statSync(file).mtimeMs
  } catch {
    return undefined
  }
}

/**
 * Whether the lock's holder may still run. In this process's own view (same host, same pid namespace) its pid is
 * asked, as before. Elsewhere — another host, or another container sharing the folder under the same hostname,
 * where the pid means nothing here — only its heartbeat can tell: a lock not touched for STALE_MS is stale. A
 * lock of an older version (no heartbeat) from elsewhere is never taken over.
 */
function holderMayRun(owner: LockOwner, me: LockOwner, touchedAt: number | undefined): boolean {
  const sameView = owner.host === me.host && (owner.ns === undefined || owner.ns === me.ns)
  if (sameView) return owner.pid !== me.pid && isRunning(owner.pid)
  if (!owner.beats) return true
  return touchedAt === undefined || Date.now() - touchedAt < STALE_MS
}

/**
 * True when a Node process with this id runs on this machine (EPERM: it runs, as someone else). Where /proc
 * exists, a reused pid of another program does not count.
 */
function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0)
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EPERM') return false
  }
  try {
    return /node/.test(readFileSync(`/proc/${pid}/cmdline`, 'utf8'))
  } catch {
    return true
  }
}

function readRaw(file: string): string | undefined {
  try {
    return readFileSync(file, 'utf8')
  } catch {
    return undefined
  }
}

function parseOwner(raw: string | undefined): LockOwner | undefined {
  try {
    const owner = JSON.parse(raw ?? '') as LockOwner
    return Number.isInteger(owner.pid) ? owner : undefined
  } catch {
    // Missing, or half-written by a process killed mid-write: nobody holds it.
    return undefined
  }
}

const readOwner = (file: string) => parseOwner(readRaw(file))

export interface DataDirLock {
  release(): void
}

const held = new Map<string, DataDirLock>()

/**
 * Takes `DATA_DIR/app.lock` for this process (O_EXCL create, holding pid, host and start time). A lock whose
 * process no longer runs on this host (kill -9, power loss) is stale and taken over. Held by a live process:
 * DataDirError naming it. Taking it again in the same process is a no-op.
 */
export function lockDataDir(dir: string): DataDirLock {
  const resolved = path.resolve(dir)
  const existing = held.get(resolved)
  if (existing) return existing
  const file = path.join(resolved, LOCK_FILE)
  const me: LockOwner = {
    pid: process.pid,
    host: hostname(),
    startedAt: new Date().toISOString(),
    ns: pidNamespace(),
    beats: true,
  }
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      const fd = openSync(file, 'wx', 0o600)
      try {
        writeSync(fd, JSON.stringify(me))
      } finally {
        closeSync(fd)
      }
      const heartbeat = setInterval(() => {
        // Taken over meanwhile (this process was paused past STALE_MS): never keep another holder's lock fresh.
        const owner = readOwner(file)
        if (owner && (owner.pid !== me.pid || owner.startedAt !== me.startedAt)) {
          clearInterval(heartbeat)
          return
        }
        const now = new Date()
        try {
          utimesSync(file, now, now)
        } catch {
          // Gone (released, or removed by hand): nothing to keep fresh.
        }
      }, HEARTBEAT_MS)
      heartbeat.unref()
      const lock: DataDirLock = {
        release() {
          clearInterval(heartbeat)
          held.delete(resolved)
          process.off('exit', lock.release)
          // Only our own lock: a process that took over a lock we lost must keep it.
          const owner = readOwner(file)
          if (owner?.pid === me.pid && owner.startedAt === me.startedAt && owner.ns === me.ns)
            unlinkSafely(file)
        },
      }
      held.set(resolved, lock)
      process.on('exit', lock.release)
      return lock
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error
    }
    const raw = readRaw(file)
    const owner = parseOwner(raw)
    if (owner && holderMayRun(owner, me, mtimeMs(file))) {
      throw new DataDirError(
        `DATA_DIR ${resolved} is in use by another running app (pid ${owner.pid} on ${owner.host}, since ${owner.startedAt}): stop that process first, or give this one its own DATA_DIR (or DATABASE_URL)${owner.beats ? `; a lock its holder has not renewed for ${STALE_MS / 1000} s is taken over` : ''}`,
      )
    }
    // Stale (its process is gone) or unreadable: remove it, unless another start replaced it meanwhile, and try
    // again; O_EXCL decides between racing starts.
    if (readRaw(file) === raw) unlinkSafely(file)
  }
  throw new DataDirError(
    `DATA_DIR ${resolved}: could not take ${LOCK_FILE}; another app may be starting there`,
  )
}

function unlinkSafely(file: string) {
  try {
    unlinkSync(file)
  } catch {
    // Already gone.
  }
}
