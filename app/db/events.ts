import '@tanstack/react-start/server-only'
import { EventEmitter } from 'node:events'
import type { Sql } from 'postgres'

/**
 * A tiny event bus between the app's instances, for telling each other that something changed (caches to empty).
 * PostgreSQL: LISTEN/NOTIFY on one dedicated connection per process. The embedded database has one process per
 * data folder, so an in-process emitter behind the same interface reaches everyone.
 *
 * Delivery is at most once: a message published while an instance's listening connection is down is lost.
 * Subscribers are told (`onReady` after every (re)subscription, `onLost` when the connection drops) so a cache
 * can empty itself and stay out of the way until it hears again.
 */
export interface EventBus {
  kind: 'postgres' | 'local'
  /** Sends `payload` (at most ~7 KB of text) to every subscriber of `channel` on every instance, this one included. */
  publish(channel: string, payload?: string): Promise<void>
  /** Resolves once subscribed (or rejects when the database is away); the returned function unsubscribes. */
  subscribe(channel: string, handler: (payload: string) => void, hooks?: SubscribeHooks): Promise<Unsubscribe>
  close(): Promise<void>
}

export interface SubscribeHooks {
  /** Subscribed: the first time and again after every reconnect (messages may have been missed meanwhile). */
  onReady?: () => void
  /** The listening connection dropped; messages are missed until onReady. */
  onLost?: () => void
}

export type Unsubscribe = () => Promise<void>

/** Channel names are SQL identifiers: lower-case letters, digits and underscores. */
const CHANNEL = /^[a-z_][a-z0-9_]{0,62}$/
/** PostgreSQL refuses NOTIFY payloads of 8000 bytes or more. */
const MAX_PAYLOAD_BYTES = 7_000

function checkChannel(channel: string) {
  if (!CHANNEL.test(channel)) throw new TypeError(`Invalid event channel name: ${channel}`)
}

function checkPayload(payload: string) {
  if (Buffer.byteLength(payload) > MAX_PAYLOAD_BYTES) throw new RangeError('Event payload too large')
}

interface Subscriber {
  handler: (payload: string) => void
  hooks: SubscribeHooks
}

function safely(fn: (() => void) | undefined) {
  try {
    fn?.()
  } catch (err) {
    console.error('[events] a subscriber failed:', err)
  }
}

// One emitter per process: every local bus (and so every client of an embedded database) shares it.
const localEmitter = new EventEmitter().setMaxListeners(0)

/** The in-process bus (embedded database). Delivery is asynchronous, like NOTIFY's. */
export function createLocalEventBus(): EventBus {
  const mine = new Set<{ channel: string; listener: (payload: string) => void }>()
  return {
    kind: 'local',
    async publish(channel, payload = '') {
      checkChannel(channel)
      checkPayload(payload)
      setImmediate(() => localEmitter.emit(channel, payload))
    },
    async subscribe(channel, handler, hooks = {}) {
      checkChannel(channel)
      const entry = { channel, listener: (payload: string) => safely(() => handler(payload)) }
      localEmitter.on(channel, entry.listener)
      mine.add(entry)
      safely(hooks.onReady)
      return async () => {
        localEmitter.off(channel, entry.listener)
        mine.delete(entry)
      }
    },
    async close() {
      for (const entry of mine) localEmitter.off(entry.channel, entry.listener)
      mine.clear()
    },
  }
}

export interface PostgresEventBusOptions {
  /** First wait before subscribing again after a failed attempt (doubles up to maxRetryMs). */
  retryMs?: number
  maxRetryMs?: number
}

/**
 * The PostgreSQL bus: one connection of its own (LISTEN holds a session), not taken from the app's pool.
 * postgres.js re-issues LISTEN after a drop only once and gives up silently if that fails (a restarting server);
 * this bus keeps trying with backoff until it is subscribed again.
 */
export function createPostgresEventBus(url: string, options: PostgresEventBusOptions = {}): EventBus {
  const retryMs = options.retryMs ?? 250
  const maxRetryMs = options.maxRetryMs ?? 5_000
  const channels = new Map<string, Set<Subscriber>>()
  /** Channels LISTENed on the current connection. */
  const listening = new Set<string>()
  let sql: Sql | undefined
  let opening: Promise<Sql> | undefined
  let closed = false
  let retryTimer: NodeJS.Timeout | undefined
  let delay = retryMs

  const open = () => {
    opening ??= import('postgres').then(({ default: postgres }) => {
      // `onnotify` is a postgres.js option (its own sql.listen is built on it) missing from its types.
      const notified = {
        onnotify: (channel: string, payload: string) => {
          for (const s of channels.get(channel) ?? []) safely(() => s.handler(payload))
        },
      }
      sql = postgres(url, {
        ...(notified as object),
        max: 1,
        idle_timeout: 0,
        max_lifetime: null,
        fetch_types: false,
        connect_timeout: 3,
        onnotice: () => {},
        onclose: () => {
          if (closed || listening.size === 0) return
          listening.clear()
          for (const subs of channels.values()) for (const s of subs) safely(s.hooks.onLost)
          resubscribe()
        },
      })
      return sql
    })
    return opening
  }

  async function listen(channel: string) {
    const client = await open()
    // The name is checked against CHANNEL, so quoting it is enough.
    await client.unsafe(`listen "${channel}"`)
    listening.add(channel)
  }

  function resubscribe() {
    if (closed || retryTimer) return
    const attempt = async () => {
      retryTimer = undefined
      if (closed) return
      try {
        for (const channel of channels.keys()) {
          if (listening.has(channel)) continue
          await listen(channel)
          for (const s of channels.get(channel) ?? []) safely(s.hooks.onReady)
        }
        delay = retryMs
      } catch {
        retryTimer = setTimeout(attempt, delay)
        retryTimer.unref()
        delay = Math.min(delay * 2, maxRetryMs)
      }
    }
    retryTimer = setTimeout(attempt, 0)
    retryTimer.unref()
  }

  return {
    kind: 'postgres',
    async publish(channel, payload = '') {
      checkChannel(channel)
      checkPayload(payload)
      const client = await open()
      await client`select pg_notify(${channel}, ${payload})`
    },
    async subscribe(channel, handler, hooks = {}) {
      checkChannel(channel)
      if (closed) throw new Error('The event bus is closed')
      const subscriber: Subscriber = { handler, hooks }
      const subs = channels.get(channel) ?? new Set<Subscriber>()
      channels.set(channel, subs)
      subs.add(subscriber)
      try {
        if (!listening.has(channel)) await listen(channel)
      } catch (err) {
        subs.delete(subscriber)
        if (subs.size === 0) channels.delete(channel)
        throw err
      }
      safely(hooks.onReady)
      return async () => {
        const current = channels.get(channel)
        current?.delete(subscriber)
        if (current?.size === 0) {
          channels.delete(channel)
          if (listening.delete(channel)) await sql?.unsafe(`unlisten "${channel}"`).catch(() => {})
        }
      }
    },
    async close() {
      closed = true
      if (retryTimer) clearTimeout(retryTimer)
      channels.clear()
      listening.clear()
      await sql?.end({ timeout: 1 }).catch(() => {})
    },
  }
}

/** A bus for a database: PostgreSQL when a URL is given, the in-process one for the embedded database. */
export function createEventBus(options: { databaseUrl?: string } = {}): EventBus {
  return options.databaseUrl ? createPostgresEventBus(options.databaseUrl) : createLocalEventBus()
}

let appBus: Promise<EventBus> | undefined

/** The app's bus, for the database the app uses (DATABASE_URL), made on first use. */
export function getEventBus(): Promise<EventBus> {
  appBus ??= import('../server/config').then(({ getConfig }) =>
    createEventBus({ databaseUrl: getConfig().databaseUrl }),
  )
  appBus.catch(() => {
    appBus = undefined
  })
  return appBus
}

/** Closes the app's bus (on shutdown, with the database). */
export async function closeEventBus(): Promise<void> {
  const current = appBus
  appBus = undefined
  if (current) await (await current.catch(() => undefined))?.close()
}
