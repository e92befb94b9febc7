import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs'
import { dirname } from 'node:path'
import type { Adapter, AdapterPayload } from 'oidc-provider'

/**
 * Storage for the embedded provider's sessions, grants and tokens: in memory, optionally written to a JSON file
 * (debounced) so that a restart of `npm start` or `npm run dev` keeps people signed in. One process only; the
 * embedded provider is for development, demos and tests.
 */

interface Entry {
  payload: AdapterPayload
  /** Epoch ms; undefined = no expiry. */
  expiresAt?: number
}

interface Snapshot {
  version: 1
  entries: [string, Entry][]
}

/** Models worth keeping across a restart; interactions and codes are short-lived. */
const PERSISTED = new Set(['Session', 'Grant', 'RefreshToken', 'AccessToken'])
const GRANTABLE = new Set([
  'AccessToken',
  'AuthorizationCode',
  'RefreshToken',
  'DeviceCode',
  'BackchannelAuthenticationRequest',
])

/** How often a write also drops the expired entries. */
const SWEEP_EVERY_MS = 60_000

export class ProviderStore {
  readonly #entries = new Map<string, Entry>()
  readonly #file: string | undefined
  #timer: NodeJS.Timeout | undefined
  #sweptAt = Date.now()

  constructor(file?: string) {
    this.#file = file
    if (file) this.#restore(file)
  }

  #restore(file: string) {
    try {
      const snapshot = JSON.parse(readFileSync(file, 'utf8')) as Snapshot
      const now = Date.now()
      for (const [key, entry] of snapshot.entries ?? []) {
        if (entry.expiresAt === undefined || entry.expiresAt > now) this.#entries.set(key, entry)
      }
    } catch (error) {
      // A missing or unreadable snapshot only means everyone signs in again.
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') {
        console.warn(`[idp] ignoring unreadable ${file}: ${(error as Error).message}`)
      }
    }
  }

  #schedulePersist() {
    if (!this.#file || this.#timer) return
    this.#timer = setTimeout(() => {
      this.#timer = undefined
      this.flush()
    }, 250)
    this.#timer.unref()
  }

  /** Writes the snapshot now (also called on a timer after changes). */
  flush() {
    if (!this.#file) return
    const now = Date.now()
    const entries = [...this.#entries].filter(
      ([key, entry]) =>
        PERSISTED.has(key.slice(0, key.indexOf(':'))) &&
        (entry.expiresAt === undefined || entry.expiresAt > now),
    )
    try {
      mkdirSync(dirname(this.#file), { recursive: true, mode: 0o700 })
      const tmp = `${this.#file}.${process.pid}.tmp`
      writeFileSync(tmp, JSON.stringify({ version: 1, entries } satisfies Snapshot), { mode: 0o600 })
      renameSync(tmp, this.#file)
    } catch (error) {
      console.warn(`[idp] could not persist the provider store: ${(error as Error).message}`)
    }
  }

  get(key: string): AdapterPayload | undefined {
    const entry = this.#entries.get(key)
    if (!entry) return undefined
    if (entry.expiresAt !== undefined && entry.expiresAt <= Date.now()) {
      this.#entries.delete(key)
      return undefined
    }
    return entry.payload
  }

  set(key: string, payload: AdapterPayload, expiresInSeconds?: number) {
    const now = Date.now()
    this.#entries.set(key, {
      payload,
      expiresAt: typeof expiresInSeconds === 'number' ? now + expiresInSeconds * 1000 : undefined,
    })
    // Expired entries nobody reads again (abandoned sign-in screens, used codes) would otherwise stay for good.
    if (now - this.#sweptAt >= SWEEP_EVERY_MS) this.sweep(now)
    this.#schedulePersist()
  }

  /** Drops every expired entry. */
  sweep(now = Date.now()) {
    this.#sweptAt = now
    for (const [key, entry] of this.#entries)
      if (entry.expiresAt !== undefined && entry.expiresAt <= now) this.#entries.delete(key)
  }

  delete(key: string) {
    if (this.#entries.delete(key)) this.#schedulePersist()
  }

  /** Keys of every stored entry whose payload matches. Linear, which is fine at demo scale. */
  findKeys(predicate: (key: string, payload: AdapterPayload) => boolean): string[] {
    const keys: string[] = []
    for (const [key, entry] of this.#entries) if (predicate(key, entry.payload)) keys.push(key)
    return keys
  }

  touched() {
    this.#schedulePersist()
  }
}

/** An oidc-provider adapter factory over one store. */
export function createAdapterFactory(store: ProviderStore): (model: string) => Adapter {
  return (model: string): Adapter => {
    const key = (id: string) => `${model}:${id}`
    return {
      async upsert(id, payload, expiresIn) {
        store.set(key(id), payload, expiresIn)
      },
      async find(id) {
        return store.get(key(id))
      },
      async findByUid(uid) {
        const [found] = store.findKeys((k, p) => k.startsWith(`${model}:`) && p.uid === uid)
        return found ? store.get(found) : undefined
      },
      async findByUserCode(userCode) {
        const [found] = store.findKeys((k, p) => k.startsWith(`${model}:`) && p.userCode === userCode)
        return found ? store.get(found) : undefined
      },
      async consume(id) {
        const payload = store.get(key(id))
        if (payload) {
          payload.consumed = Math.floor(Date.now() / 1000)
          store.touched()
        }
      },
      async destroy(id) {
        store.delete(key(id))
      },
      async revokeByGrantId(grantId) {
        for (const k of store.findKeys(
          (k, p) => GRANTABLE.has(k.slice(0, k.indexOf(':'))) && p.grantId === grantId,
        )) {
          store.delete(k)
        }
      },
    }
  }
}
