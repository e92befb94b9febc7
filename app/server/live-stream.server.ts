import '@tanstack/react-start/server-only'
import { randomBytes } from 'node:crypto'
import { and, eq, gt, inArray, sql } from 'drizzle-orm'
import { DATABASE_RETRY_AFTER_S, type Db, getDb, isDatabaseUnavailable } from '../db/client'
import { type EventBus, getEventBus, type Unsubscribe } from '../db/events'
import { sessions, users } from '../db/schema'
import { getSessionStore, type SessionStore, sessionRowId } from './auth/session.server'
import { decodeMemberEvent, MEMBER_EVENTS_CHANNEL } from './live-events.server'
import { logger } from './logger.server'

/**
 * `GET /events` (app/routes/events.ts): a Server-Sent Events stream per open page of a signed-in member.
 *
 * One subscription to the event bus per process (channel `member_events`, see live-events.server.ts) fans out in
 * memory to the streams of the members each event names. A stream holds no database connection: the member's
 * users.id is read once when it connects. Every event carries an `id:` so that the browser's EventSource
 * reconnects with `Last-Event-ID`; such a reconnect (and every stream, after the bus's own connection came back)
 * gets a `sync` event at once: events are not stored, so the page refetches what it shows.
 */

/** A comment line every so often keeps proxies and load balancers from closing an idle stream. */
export const HEARTBEAT_MS = 25_000
/** Streams end after this long (the browser reconnects at once): a deleted session or user stops hearing. */
export const STREAM_LIFETIME_MS = 30 * 60_000
/** The reconnection delay the browser is told, before a per-stream jitter of up to as much again. */
export const RETRY_MS = 3_000
/** A client that has this many chunks unread (a stalled connection) is let go. */
const MAX_QUEUED_CHUNKS = 64
/**
 * Open streams of one member on one instance. A family's phones and PCs with a few tabs each stay far below it; a
 * script opening streams with one cookie cannot hold the process's sockets. A stream past it is refused (429):
 * ending the oldest instead would make that tab reconnect and end the next one, in a loop; a refused page
 * tries again later with its back-off (app/components/shell/live-updates.ts).
 */
export const MAX_STREAMS_PER_MEMBER = 16

// ── Server-Sent Events framing ───────────────────────────────────────────────────────────────────────────

export interface SseMessage {
  id?: string
  event?: string
  /** Split over several `data:` lines when it contains line breaks. */
  data?: string
  retry?: number
}

/** A single-line field value: line breaks (and NUL, which voids an id) would end or corrupt the field. */
const oneLine = (value: string) => value.replace(/[\r\n\0]/g, '')

/** One message in the text/event-stream format, ending with the blank line that dispatches it. */
export function sseMessage({ id, event, data, retry }: SseMessage): string {
  let out = ''
  if (retry !== undefined) out += `retry: ${Math.max(0, Math.floor(retry))}\n`
  if (id !== undefined) out += `id: ${oneLine(id)}\n`
  if (event !== undefined) out += `event: ${oneLine(event)}\n`
  if (data !== undefined) for (const line of data.split(/\r\n|\r|\n/)) out += `data: ${line}\n`
  return `${out}\n`
}

/** A comment: ignored by the browser, keeps the connection busy. */
export function sseComment(text = ''): string {
  return `:${text ? ` ${oneLine(text)}` : ''}\n\n`
}

// ── The hub: one bus subscription, many streams ──────────────────────────────────────────────────────────

export interface LiveHubOptions {
  getBus: () => Promise<EventBus>
  heartbeatMs?: number
  lifetimeMs?: number
  retryMs?: number
  now?: () => number
  /** In [0, 1): spreads the streams' ends (tests pass a fixed one). */
  random?: () => number
  /**
   * Which of these session row ids still exist (checked with each heartbeat): a stream whose session ended —
   * logout, この端末以外からログアウト, a suspension — on any instance ends at the next heartbeat.
   */
  sessionsAlive?: (ids: string[]) => Promise<Set<string>>
}

export interface OpenStreamOptions {
  /** The request's Last-Event-ID: a reconnect, which may have missed events. */
  lastEventId?: string | null
  /** Aborted when the client goes away (where the server ties it to the connection). */
  signal?: AbortSignal
  /** The session row the stream was opened with (see LiveHubOptions.sessionsAlive). */
  sessionId?: string
}

export interface LiveHubStats {
  streams: number
  users: number
  subscribed: boolean
}

export interface LiveHub {
  /** A new stream for the member; rejects when the bus cannot be subscribed or the hub is shutting down. */
  open(userId: number, options?: OpenStreamOptions): Promise<ReadableStream<Uint8Array>>
  /** Ends every stream cleanly, refuses new ones and lets go of the bus (shutdown). */
  closeAll(): Promise<void>
  stats(): LiveHubStats
}

/** Thrown by LiveHub.open when the member already has MAX_STREAMS_PER_MEMBER streams here. */
export class TooManyStreamsError extends Error {
  override name = 'TooManyStreamsError'
}

/** Thrown by LiveHub.open while the hub is shutting down. */
export class LiveHubClosedError extends Error {
  override name = 'LiveHubClosedError'
}

interface Connection {
  userId: number
  sessionId?: string
  controller: ReadableStreamDefaultController<Uint8Array>
  expiresAt: number
  closed: boolean
}

const encoder = new TextEncoder()

export function createLiveHub(options: LiveHubOptions): LiveHub {
  const heartbeatMs = options.heartbeatMs ?? HEARTBEAT_MS
  const lifetimeMs = options.lifetimeMs ?? STREAM_LIFETIME_MS
  const random = options.random ?? Math.random
  const retryMs = options.retryMs ?? RETRY_MS
  const now = options.now ?? Date.now
  const byUser = new Map<number, Set<Connection>>()
  let count = 0
  let closing = false
  let heartbeat: NodeJS.Timeout | undefined
  let subscription: Unsubscribe | undefined
  /** Subscribing and unsubscribing run one after the other, in order. */
  let chain: Promise<void> = Promise.resolve()
  /** The bus's connection dropped: events may have been missed until it is back. */
  let lost = false
  // Event ids: unique per process start, increasing. Their value means nothing to the server (nothing is
  // replayed); a reconnect that carries one is told to sync.
  const epoch = randomBytes(4).toString('hex')
  let seq = 0
  const nextId = () => `${epoch}.${(++seq).toString(36)}`

  function write(conn: Connection, text: string) {
    if (conn.closed) return
    if ((conn.controller.desiredSize ?? 0) < -MAX_QUEUED_CHUNKS) {
      end(conn)
      return
    }
    try {
      conn.controller.enqueue(encoder.encode(text))
    } catch {
      // Already closed or errored underneath: forget it.
      forget(conn)
    }
  }

  function broadcast(text: string) {
    for (const conns of byUser.values()) for (const conn of conns) write(conn, text)
  }

  function onPayload(payload: string) {
    const event = decodeMemberEvent(payload)
    if (!event) return
    let text: string | undefined
    for (const userId of event.u) {
      const conns = byUser.get(userId)
      if (!conns) continue
      text ??= sseMessage({ id: nextId(), event: event.t, data: JSON.stringify(event.d ?? {}) })
      for (const conn of conns) write(conn, text)
    }
  }

  let checkingSessions = false

  function tick() {
    const at = now()
    for (const conns of [...byUser.values()]) {
      for (const conn of [...conns]) {
        if (at >= conn.expiresAt) end(conn)
        else write(conn, sseComment())
      }
    }
    void endStreamsOfEndedSessions()
  }

  /** One query per heartbeat for every stream of this instance; skipped while the last one runs or fails. */
  async function endStreamsOfEndedSessions() {
    if (!options.sessionsAlive || checkingSessions) return
    const open = [...byUser.values()].flatMap((conns) => [...conns]).filter((c) => c.sessionId !== undefined)
    if (open.length === 0) return
    checkingSessions = true
    try {
      const alive = await options.sessionsAlive([...new Set(open.map((c) => c.sessionId!))])
      for (const conn of open) if (!alive.has(conn.sessionId!)) end(conn)
    } catch (err) {
      logger.warn({ err }, 'live events: cannot check the sessions of open streams')
    } finally {
      checkingSessions = false
    }
  }

  /** Brings the bus subscription in line with whether any stream is open. */
  function reconcile(): Promise<void> {
    const run = chain.then(async () => {
      if (count > 0 && !subscription) {
        const bus = await options.getBus()
        lost = false
        subscription = await bus.subscribe(MEMBER_EVENTS_CHANNEL, onPayload, {
          onLost: () => {
            lost = true
          },
          onReady: () => {
            if (!lost) return
            lost = false
            broadcast(sseMessage({ id: nextId(), event: 'sync', data: '{"reason":"bus"}' }))
          },
        })
      } else if (count === 0 && subscription) {
        const unsubscribe = subscription
        subscription = undefined
        await unsubscribe().catch((err) => logger.warn({ err }, 'live events: unsubscribe failed'))
      }
    })
    chain = run.catch(() => {})
    return run
  }

  function add(conn: Connection) {
    const conns = byUser.get(conn.userId) ?? new Set<Connection>()
    byUser.set(conn.userId, conns)
    conns.add(conn)
    count++
    if (!heartbeat) {
      heartbeat = setInterval(tick, heartbeatMs)
      heartbeat.unref?.()
    }
  }

  /** Drops a stream from the hub (it is closed or its client is gone); lets go of the bus after the last. */
  function forget(conn: Connection) {
    if (conn.closed) return
    conn.closed = true
    const conns = byUser.get(conn.userId)
    if (conns?.delete(conn)) {
      count--
      if (conns.size === 0) byUser.delete(conn.userId)
    }
    if (count === 0 && heartbeat) {
      clearInterval(heartbeat)
      heartbeat = undefined
    }
    void reconcile().catch(() => {})
  }

  /** Ends a stream from our side: the response finishes normally and the browser reconnects. */
  function end(conn: Connection) {
    if (conn.closed) return
    forget(conn)
    try {
      conn.controller.close()
    } catch {
      // The client went away meanwhile.
    }
  }

  return {
    async open(userId, { lastEventId, signal, sessionId } = {}) {
      if (closing) throw new LiveHubClosedError('The live event hub is shutting down')
      if ((byUser.get(userId)?.size ?? 0) >= MAX_STREAMS_PER_MEMBER)
        throw new TooManyStreamsError(`member ${userId} has ${MAX_STREAMS_PER_MEMBER} streams open`)
      let conn!: Connection
      const stream = new ReadableStream<Uint8Array>({
        start(controller) {
          // ±20 %: streams opened together (every tab after a deploy) would otherwise end, reconnect and refetch
          // together at each lifetime, for good.
          const lifetime = lifetimeMs * (0.8 + random() * 0.4)
          conn = { userId, sessionId, controller, expiresAt: now() + lifetime, closed: false }
        },
        cancel() {
          forget(conn)
        },
      })
      add(conn)
      // The jitter spreads the reconnections after a shutdown over a few seconds.
      let hello = sseMessage({
        retry: retryMs + Math.floor(Math.random() * retryMs),
        id: nextId(),
        event: 'ready',
        data: '{}',
      })
      if (lastEventId) hello += sseMessage({ id: nextId(), event: 'sync', data: '{"reason":"reconnect"}' })
      write(conn, hello)
      try {
        await reconcile()
      } catch (err) {
        end(conn)
        throw err
      }
      if (signal) {
        if (signal.aborted) end(conn)
        else signal.addEventListener('abort', () => end(conn), { once: true })
      }
      return stream
    },

    async closeAll() {
      closing = true
      for (const conns of [...byUser.values()]) for (const conn of [...conns]) end(conn)
      await reconcile().catch(() => {})
    },

    stats() {
      return { streams: count, users: byUser.size, subscribed: subscription !== undefined }
    },
  }
}

// ── The request ──────────────────────────────────────────────────────────────────────────────────────────

/**
 * users.id of the request's member (and the session row it came with): undefined when not signed in (or signed in
 * to a suspended account, whose sessions count for nothing), null when signed in without a profile yet. The session's issuer and subject name the users row, as the /v1 API's
 * requireUser does with a token's.
 */
export type MemberResolver = (
  request: Request,
) => Promise<{ userId: number; sessionId?: string } | null | undefined>

export function sessionMemberResolver(deps: {
  store: () => SessionStore
  getDb: () => Promise<Db>
}): MemberResolver {
  return async (request) => {
    const store = deps.store()
    if (!store.hasSessionCookie(request)) return undefined
    const session = await store.readSession(request)
    if (!session) return undefined
    const db = await deps.getDb()
    const sessionId = sessionRowId(session.sid)
    const [row] = await db
      .select({ id: users.id, suspendedAt: users.suspendedAt })
      .from(sessions)
      .innerJoin(users, and(eq(users.issuer, sessions.issuer), eq(users.sub, sessions.sub)))
      .where(eq(sessions.id, sessionId))
      .limit(1)
    // A suspended account's sessions end with the suspension; one made by a sign-in racing it counts for nothing.
    if (row?.suspendedAt) return undefined
    return row ? { userId: row.id, sessionId } : null
  }
}

export interface LiveEventsDeps {
  hub: LiveHub
  resolveMember: MemberResolver
}

const jsonError = (status: number, code: string, message: string, headers: Record<string, string> = {}) =>
  Response.json({ code, message }, { status, headers: { 'cache-control': 'no-store', ...headers } })

/**
 * Only the app's own pages may open a stream: a browser says where a request comes from (Sec-Fetch-Site, and
 * Origin on cross-origin requests). Clients that say nothing (curl, tests) are let through: they need the cookie.
 */
function sameOrigin(request: Request): boolean {
  const site = request.headers.get('sec-fetch-site')
  if (site !== null && site !== 'same-origin') return false
  const origin = request.headers.get('origin')
  return origin === null || origin === new URL(request.url).origin
}

/** The answer to `GET /events`: 200 text/event-stream, or a JSON error with a Japanese message. */
export async function liveEventsResponse(request: Request, deps: LiveEventsDeps = defaultDeps()) {
  if (!sameOrigin(request)) return jsonError(403, 'cross_origin', '不正なリクエストです。')
  const unavailable = () =>
    jsonError(503, 'live_unavailable', 'ただいま自動更新を利用できません。しばらくしてからお試しください。', {
      'retry-after': String(DATABASE_RETRY_AFTER_S),
    })
  let member: Awaited<ReturnType<MemberResolver>>
  try {
    member = await deps.resolveMember(request)
  } catch (err) {
    if (!isDatabaseUnavailable(err)) throw err
    return unavailable()
  }
  if (member === undefined) return jsonError(401, 'unauthorized', 'ログインが必要です')
  if (member === null) return jsonError(403, 'unregistered', 'プロフィールが登録されていません')
  let stream: ReadableStream<Uint8Array>
  try {
    stream = await deps.hub.open(member.userId, {
      lastEventId: request.headers.get('last-event-id'),
      signal: request.signal,
      sessionId: member.sessionId,
    })
  } catch (err) {
    if (err instanceof TooManyStreamsError)
      return jsonError(
        429,
        'too_many_streams',
        '自動更新を開いている画面が多すぎます。使っていない画面を閉じてください。',
        { 'retry-after': '60' },
      )
    if (!(err instanceof LiveHubClosedError)) logger.warn({ err }, 'live events: cannot subscribe to the bus')
    return unavailable()
  }
  return new Response(stream, {
    headers: {
      'content-type': 'text/event-stream',
      'cache-control': 'no-store',
      // nginx and similar proxies: pass each event on at once.
      'x-accel-buffering': 'no',
    },
  })
}

let appHub: LiveHub | undefined

/**
 * sessionsAlive over the sessions table (app/server/auth/session.server.ts): the ids among `ids` still there and
 * not past their end (an expired row stays until its member's next sign-in sweeps it).
 */
export function liveSessionIds(getDbFn: () => Promise<Db>) {
  return async (ids: string[]): Promise<Set<string>> => {
    const rows = await (await getDbFn())
      .select({ id: sessions.id })
      .from(sessions)
      .where(and(inArray(sessions.id, ids), gt(sessions.expiresAt, sql`now()`)))
    return new Set(rows.map((r) => r.id))
  }
}

/** The process's hub, on the app's event bus. */
export function getLiveHub(): LiveHub {
  appHub ??= createLiveHub({ getBus: getEventBus, sessionsAlive: liveSessionIds(getDb) })
  return appHub
}

function defaultDeps(): LiveEventsDeps {
  return { hub: getLiveHub(), resolveMember: sessionMemberResolver({ store: getSessionStore, getDb }) }
}

/**
 * Ends every open stream and refuses new ones, for shutdown. Call it when draining starts, before waiting for the
 * requests in flight (an open stream is one and would hold the drain for the whole grace period):
 *
 *   // app/server.ts
 *   import { closeLiveStreams } from './server/live-stream.server'
 *   export async function onServerDrain() {
 *     await closeLiveStreams()
 *   }
 *
 * (scripts/serve.mjs calls `onServerDrain` when SIGTERM/SIGINT starts the drain.) Safe to call again, e.g. also
 * at the top of onServerStop.
 */
export async function closeLiveStreams(): Promise<void> {
  await appHub?.closeAll()
}
