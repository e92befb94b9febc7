import type { QueryClient } from '@tanstack/react-query'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { connectLiveUpdates, HIDDEN_CLOSE_MS, keysFor, type LiveStatus } from './live-updates'

/** A stand-in for the browser's EventSource: the test plays the server. */
class FakeEventSource {
  static all: FakeEventSource[] = []
  readyState = 0
  onerror: (() => void) | null = null
  closed = false
  private listeners = new Map<string, (() => void)[]>()
  constructor(readonly url: string) {
    FakeEventSource.all.push(this)
  }
  addEventListener(type: string, listener: () => void) {
    this.listeners.set(type, [...(this.listeners.get(type) ?? []), listener])
  }
  close() {
    this.closed = true
    this.readyState = 2
  }
  emit(type: string) {
    if (type === 'ready') this.readyState = 1
    for (const l of this.listeners.get(type) ?? []) l()
  }
  fail(readyState: 0 | 2) {
    this.readyState = readyState
    this.onerror?.()
  }
}

/** The page's visibility, switched by the test. */
function fakePage(initial: DocumentVisibilityState = 'visible') {
  const listeners = new Set<() => void>()
  return {
    visibilityState: initial,
    addEventListener: (_type: string, l: () => void) => listeners.add(l),
    removeEventListener: (_type: string, l: () => void) => listeners.delete(l),
    set(state: DocumentVisibilityState) {
      this.visibilityState = state
      for (const l of listeners) l()
    },
    get listening() {
      return listeners.size
    },
  }
}

function setup(page?: ReturnType<typeof fakePage>) {
  const invalidated: string[] = []
  const queryClient = {
    invalidateQueries: vi.fn(async ({ queryKey }: { queryKey: unknown[] }) => {
      invalidated.push(JSON.stringify(queryKey))
    }),
  } as unknown as QueryClient
  const statuses: LiveStatus[] = []
  const stop = connectLiveUpdates(queryClient, {
    createEventSource: (url) => new FakeEventSource(url) as unknown as EventSource,
    visibility: page as unknown as Document | undefined,
    onStatus: (s) => statuses.push(s),
  })
  return { invalidated, statuses, stop, queryClient }
}

describe('live updates in the browser', () => {
  beforeEach(() => {
    vi.useFakeTimers()
    FakeEventSource.all = []
  })
  afterEach(() => {
    vi.useRealTimers()
  })

  it('maps each event to the caches it makes stale; sync to all of them', () => {
    expect(keysFor(['message'])).toEqual([['rooms'], ['auth'], ['mypage']])
    expect(keysFor(['notice', 'announcement'])).toEqual([['information'], ['auth'], ['mypage']])
    expect(keysFor(['reservation'])).toEqual(
      expect.arrayContaining([['mypage'], ['attendance'], ['purchase-history'], ['class-management']]),
    )
    const all = keysFor(['sync']).map((k) => JSON.stringify(k))
    expect(new Set(all).size).toBe(all.length)
    for (const key of ['rooms', 'auth', 'mypage', 'information', 'attendance'])
      expect(all).toContain(JSON.stringify([key]))
  })

  it('opens /events and invalidates the matching queries, once per burst', async () => {
    const { invalidated, statuses, stop } = setup()
    const [es] = FakeEventSource.all
    expect(es!.url).toBe('/events')
    es!.emit('ready')
    expect(statuses).toEqual(['connecting', 'open'])
    await vi.advanceTimersByTimeAsync(100)
    expect(invalidated).toEqual([]) // the first connection has nothing to catch up on

    es!.emit('message')
    es!.emit('message')
    es!.emit('notice')
    await vi.advanceTimersByTimeAsync(100)
    expect(invalidated.sort()).toEqual(['["auth"]', '["information"]', '["mypage"]', '["rooms"]'])

    stop()
    expect(es!.closed).toBe(true)
  })

  it('leaves reconnection to the browser while it retries, and refetches everything on its sync', async () => {
    const { invalidated } = setup()
    const [es] = FakeEventSource.all
    es!.emit('ready')
    es!.fail(0)
    await vi.advanceTimersByTimeAsync(60_000)
    expect(FakeEventSource.all).toHaveLength(1)
    es!.emit('ready')
    es!.emit('sync')
    await vi.advanceTimersByTimeAsync(100)
    expect(invalidated).toContain('["attendance"]')
    expect(invalidated).toContain('["rooms"]')
  })

  it('reopens by itself with backoff when the server refused the stream, then refetches everything', async () => {
    const { invalidated, statuses, stop } = setup()
    FakeEventSource.all[0]!.fail(2)
    expect(statuses.at(-1)).toBe('closed')
    await vi.advanceTimersByTimeAsync(5_000)
    expect(FakeEventSource.all).toHaveLength(2)
    FakeEventSource.all[1]!.fail(2)
    await vi.advanceTimersByTimeAsync(4_000)
    expect(FakeEventSource.all).toHaveLength(2) // the second wait is longer (5–10 s)
    await vi.advanceTimersByTimeAsync(6_000)
    expect(FakeEventSource.all).toHaveLength(3)
    FakeEventSource.all[2]!.emit('ready')
    await vi.advanceTimersByTimeAsync(100)
    expect(invalidated).toContain('["auth"]')
    expect(invalidated).toContain('["mypage"]')
    stop()
    FakeEventSource.all[2]!.fail(2)
    await vi.advanceTimersByTimeAsync(10 * 60_000)
    expect(FakeEventSource.all).toHaveLength(3)
  })

  it('lets the stream go while the tab is hidden, and catches up when it is shown again', async () => {
    const page = fakePage()
    const { invalidated, statuses, stop } = setup(page)
    FakeEventSource.all[0]!.emit('ready')
    // Hidden briefly: the stream stays.
    page.set('hidden')
    await vi.advanceTimersByTimeAsync(HIDDEN_CLOSE_MS - 1_000)
    page.set('visible')
    await vi.advanceTimersByTimeAsync(HIDDEN_CLOSE_MS)
    expect(FakeEventSource.all).toHaveLength(1)
    expect(FakeEventSource.all[0]!.closed).toBe(false)
    // Hidden for longer: closed, then reopened with a full refetch once it is back.
    page.set('hidden')
    await vi.advanceTimersByTimeAsync(HIDDEN_CLOSE_MS)
    expect(FakeEventSource.all[0]!.closed).toBe(true)
    expect(statuses.at(-1)).toBe('paused')
    await vi.advanceTimersByTimeAsync(60 * 60_000)
    expect(FakeEventSource.all).toHaveLength(1)
    page.set('visible')
    expect(FakeEventSource.all).toHaveLength(2)
    FakeEventSource.all[1]!.emit('ready')
    await vi.advanceTimersByTimeAsync(100)
    expect(invalidated).toContain('["rooms"]')
    expect(invalidated).toContain('["information"]')
    stop()
    expect(page.listening).toBe(0)
  })

  it('does not open a stream for a tab opened in the background until it is shown', async () => {
    const page = fakePage('hidden')
    const { invalidated } = setup(page)
    expect(FakeEventSource.all).toHaveLength(0)
    page.set('visible')
    FakeEventSource.all[0]!.emit('ready')
    await vi.advanceTimersByTimeAsync(100)
    expect(invalidated).toContain('["auth"]')
  })
})
