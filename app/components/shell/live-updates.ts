import type { QueryClient, QueryKey } from '@tanstack/react-query'

/**
 * The browser side of live updates (GET /events, app/server/live-stream.server.ts), loaded on demand by
 * useLiveUpdates. Each event makes the queries it concerns stale: the ones on screen refetch at once, the
 * others on their next use. The caches stay TanStack Query's; nothing is kept here.
 */

export type LiveEventName = 'message' | 'notice' | 'announcement' | 'reservation' | 'sync'

const EVENT_NAMES: readonly LiveEventName[] = ['message', 'notice', 'announcement', 'reservation', 'sync']

/** Query key prefixes each event makes stale (`sync`: all of them). */
export const LIVE_INVALIDATIONS: Record<Exclude<LiveEventName, 'sync'>, readonly QueryKey[]> = {
  // The room list and the open room, the header counts (auth state) and My Page's unread messages.
  message: [['rooms'], ['auth'], ['mypage']],
  // /information (list and items), the header counts and My Page's unread notices.
  notice: [['information'], ['auth'], ['mypage']],
  announcement: [['information'], ['auth'], ['mypage']],
  // My Page's next lessons, 受講クラス and 購入履歴 (refunds), a teacher's class management (students) and sales,
  // seats left.
  reservation: [
    ['mypage'],
    ['attendance'],
    ['purchase-history'],
    ['class-management'],
    ['sales'],
    ['class-detail'],
    ['reservation-options'],
  ],
}

/** The distinct key prefixes for a set of events. */
export function keysFor(events: Iterable<LiveEventName>): QueryKey[] {
  const keys = new Map<string, QueryKey>()
  for (const event of events) {
    const lists = event === 'sync' ? Object.values(LIVE_INVALIDATIONS) : [LIVE_INVALIDATIONS[event] ?? []]
    for (const list of lists) for (const key of list) keys.set(JSON.stringify(key), key)
  }
  return [...keys.values()]
}

/** Events arriving together (one write, several kinds) cause one refetch per query. */
const COALESCE_MS = 50
/** Our own reconnection after the server refused a stream (the browser gives up on a non-200 answer). */
const REOPEN_BASE_MS = 5_000
const REOPEN_MAX_MS = 5 * 60_000
/**
 * A tab hidden this long lets its stream go, and catches up when it is shown again. Over HTTP/1.1 a browser
 * opens at most six connections to a site: a stream per background tab would soon leave none for the pages.
 */
export const HIDDEN_CLOSE_MS = 10_000

export type LiveStatus = 'connecting' | 'open' | 'closed' | 'paused'

type Visibility = Pick<Document, 'visibilityState' | 'addEventListener' | 'removeEventListener'>

export interface LiveUpdatesOptions {
  url?: string
  /** For tests: an EventSource stand-in. */
  createEventSource?: (url: string) => EventSource
  /** For tests: the page's visibility (default: the document). */
  visibility?: Visibility
  onStatus?: (status: LiveStatus) => void
}

/** Opens the stream (while the page is visible) and keeps it so until the returned function is called. */
export function connectLiveUpdates(queryClient: QueryClient, options: LiveUpdatesOptions = {}): () => void {
  const url = options.url ?? '/events'
  const create = options.createEventSource ?? ((u: string) => new EventSource(u))
  const page: Visibility | undefined = options.visibility ?? globalThis.document
  const setStatus = options.onStatus ?? (() => {})
  const pending = new Set<LiveEventName>()
  let source: EventSource | undefined
  let flushTimer: ReturnType<typeof setTimeout> | undefined
  let reopenTimer: ReturnType<typeof setTimeout> | undefined
  let hiddenTimer: ReturnType<typeof setTimeout> | undefined
  let failures = 0
  /** The next stream starts after a gap in which events were not heard: refetch everything once it is open. */
  let catchUp = false
  let stopped = false

  const flush = () => {
    flushTimer = undefined
    const keys = keysFor(pending)
    pending.clear()
    for (const queryKey of keys) void queryClient.invalidateQueries({ queryKey })
  }
  const schedule = (event: LiveEventName) => {
    pending.add(event)
    flushTimer ??= setTimeout(flush, COALESCE_MS)
  }

  const close = () => {
    if (reopenTimer) clearTimeout(reopenTimer)
    reopenTimer = undefined
    source?.close()
    source = undefined
  }

  const open = () => {
    reopenTimer = undefined
    if (stopped) return
    setStatus('connecting')
    const es = create(url)
    source = es
    es.addEventListener('ready', () => {
      setStatus('open')
      if (catchUp) schedule('sync')
      catchUp = false
      failures = 0
    })
    for (const event of EVENT_NAMES) es.addEventListener(event, () => schedule(event))
    es.onerror = () => {
      if (stopped || source !== es) return
      // CONNECTING: the browser reconnects by itself, with Last-Event-ID (the server then sends `sync`).
      if (es.readyState !== 2 /* CLOSED */) {
        setStatus('connecting')
        return
      }
      // CLOSED: the server answered something else than a stream (signed out, 503 while it restarts).
      close()
      setStatus('closed')
      catchUp = true
      failures++
      const delay = Math.min(REOPEN_MAX_MS, REOPEN_BASE_MS * 2 ** (failures - 1))
      reopenTimer = setTimeout(open, delay * (0.5 + Math.random() / 2))
    }
  }

  const pause = () => {
    hiddenTimer = undefined
    close()
    catchUp = true
    setStatus('paused')
  }
  const onVisibility = () => {
    if (stopped) return
    if (page?.visibilityState === 'hidden') {
      hiddenTimer ??= setTimeout(pause, HIDDEN_CLOSE_MS)
      return
    }
    if (hiddenTimer) clearTimeout(hiddenTimer)
    hiddenTimer = undefined
    if (!source && !reopenTimer) open()
  }

  page?.addEventListener('visibilitychange', onVisibility)
  if (page?.visibilityState === 'hidden') {
    // Opened in the background: its data is from the moment it loaded.
    catchUp = true
    setStatus('paused')
  } else open()

  return () => {
    stopped = true
    page?.removeEventListener('visibilitychange', onVisibility)
    if (hiddenTimer) clearTimeout(hiddenTimer)
    if (flushTimer) clearTimeout(flushTimer)
    pending.clear()
    close()
    setStatus('closed')
  }
}
