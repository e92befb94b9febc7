import { describe, expect, it, vi } from 'vitest'
import { fakeBus } from '../../tests/support/fake-bus'
import type { ClassWorkCard } from '../contract/v1/class-works'
import { createCardCache } from './card-cache'
import { SEARCH_INVALIDATE_CHANNEL } from './search-invalidation'

const NOW = new Date('2026-12-05T10:00:00Z')

function card(id: number, title: string, nextStart?: string): ClassWorkCard {
  return {
    id,
    title,
    next_schedule: nextStart ? ({ started_at: nextStart } as ClassWorkCard['next_schedule']) : null,
  } as ClassWorkCard
}

/** A database whose cards the test edits: `titles`, the next lesson of each, and how many loads reached it. */
function source() {
  const titles = new Map<number, string>([
    [1, 'ピアノ'],
    [2, '将棋'],
    [3, '英語'],
  ])
  const starts = new Map<number, string>()
  const loads: number[][] = []
  const load = async (ids: number[]) => {
    loads.push(ids)
    return ids.flatMap((id) => {
      const title = titles.get(id)
      return title === undefined ? [] : [card(id, title, starts.get(id))]
    })
  }
  return { titles, starts, loads, load }
}

/** Lets the bus's subscription settle (it is asked for on the first read and answers on a later turn). */
const settle = () => new Promise((resolve) => setTimeout(resolve, 0))

async function warm() {
  const bus = fakeBus()
  const cache = createCardCache(bus.events, { log: { warn: () => {} } })
  const db = {}
  const src = source()
  // The first read subscribes and goes to the database: nothing is kept before the bus answers.
  await cache.cards(db, [1, 2], NOW, src.load)
  await settle()
  expect(bus.subscribed).toHaveBeenCalledWith(SEARCH_INVALIDATE_CHANNEL)
  return { bus, cache, db, src }
}

const titles = (cards: ClassWorkCard[]) => cards.map((c) => c.title)

describe('createCardCache', () => {
  it('keeps cards by id across different lists and loads only the ones it lacks, in the order asked', async () => {
    const { cache, db, src } = await warm()
    src.loads.length = 0
    expect(titles(await cache.cards(db, [2, 1], NOW, src.load))).toEqual(['将棋', 'ピアノ'])
    expect(titles(await cache.cards(db, [3, 1, 2], NOW, src.load))).toEqual(['英語', 'ピアノ', '将棋'])
    expect(titles(await cache.cards(db, [1, 3], NOW, src.load))).toEqual(['ピアノ', '英語'])
    expect(src.loads).toEqual([[2, 1], [3]])
  })

  it('skips ids the database no longer has, and keeps nothing for them', async () => {
    const { cache, db, src } = await warm()
    src.titles.delete(2)
    src.loads.length = 0
    expect(titles(await cache.cards(db, [2, 3], NOW, src.load))).toEqual(['英語'])
    expect(titles(await cache.cards(db, [2, 3], NOW, src.load))).toEqual(['英語'])
    expect(src.loads).toEqual([[2, 3], [2]])
  })

  it('empties on a message from the bus and on clear()', async () => {
    const { bus, cache, db, src } = await warm()
    await cache.cards(db, [1], NOW, src.load)
    src.titles.set(1, 'ピアノ（改）')
    expect(titles(await cache.cards(db, [1], NOW, src.load))).toEqual(['ピアノ'])
    bus.deliver()
    expect(titles(await cache.cards(db, [1], NOW, src.load))).toEqual(['ピアノ（改）'])
    src.titles.set(1, 'ピアノ（再）')
    cache.clear()
    expect(titles(await cache.cards(db, [1], NOW, src.load))).toEqual(['ピアノ（再）'])
  })

  it('does not keep a read that an invalidation overtook (it may predate the write)', async () => {
    const { cache, db, src } = await warm()
    let release!: () => void
    const held = new Promise<void>((resolve) => {
      release = resolve
    })
    const slow = async (ids: number[]) => {
      const cards = await src.load(ids) // read before the write…
      await held
      return cards
    }
    const reading = cache.cards(db, [3], NOW, slow)
    await settle()
    src.titles.set(3, '英語（改）') // …the write commits and its invalidation arrives…
    cache.clear()
    release() // …then the old read finishes.
    expect(titles(await reading)).toEqual(['英語'])
    expect(titles(await cache.cards(db, [3], NOW, src.load))).toEqual(['英語（改）'])
  })

  it('lets a card go when its next lesson starts', async () => {
    const { cache, db, src } = await warm()
    src.starts.set(1, '2026-12-05T11:00:00.000Z')
    cache.clear()
    await cache.cards(db, [1], NOW, src.load)
    src.loads.length = 0
    await cache.cards(db, [1], new Date('2026-12-05T11:00:00.000Z'), src.load)
    expect(src.loads).toEqual([])
    src.starts.set(1, '2026-12-06T11:00:00.000Z') // the next one, once the first has started
    const after = await cache.cards(db, [1], new Date('2026-12-05T11:00:00.001Z'), src.load)
    expect(src.loads).toEqual([[1]])
    expect(after[0]?.next_schedule?.started_at).toBe('2026-12-06T11:00:00.000Z')
  })

  it('lets a card go after its time to live (a favorite empties no cache)', async () => {
    vi.useFakeTimers({ toFake: ['Date'] })
    try {
      const bus = fakeBus()
      const cache = createCardCache(bus.events, { ttlMs: 1_000, log: { warn: () => {} } })
      const db = {}
      const src = source()
      await cache.cards(db, [1], NOW, src.load)
      await vi.waitFor(() => expect(bus.subscribed).toHaveBeenCalled())
      await cache.cards(db, [1], NOW, src.load)
      src.titles.set(1, 'ピアノ（改）')
      vi.advanceTimersByTime(900)
      expect(titles(await cache.cards(db, [1], NOW, src.load))).toEqual(['ピアノ'])
      vi.advanceTimersByTime(200)
      expect(titles(await cache.cards(db, [1], NOW, src.load))).toEqual(['ピアノ（改）'])
    } finally {
      vi.useRealTimers()
    }
  })

  it('reads from the database while the bus is lost, and starts empty when it is back', async () => {
    const { bus, cache, db, src } = await warm()
    await cache.cards(db, [1], NOW, src.load)
    bus.lose()
    src.titles.set(1, 'ピアノ（改）')
    src.loads.length = 0
    expect(titles(await cache.cards(db, [1], NOW, src.load))).toEqual(['ピアノ（改）'])
    expect(titles(await cache.cards(db, [1], NOW, src.load))).toEqual(['ピアノ（改）'])
    expect(src.loads).toEqual([[1], [1]])
    bus.ready()
    src.titles.set(1, 'ピアノ（再）')
    expect(titles(await cache.cards(db, [1], NOW, src.load))).toEqual(['ピアノ（再）'])
    expect(src.loads).toEqual([[1], [1], [1]])
  })

  it('keeps nothing without a bus, and asks for it again only after a pause', async () => {
    vi.useFakeTimers({ toFake: ['Date'] })
    try {
      const bus = fakeBus({ refuse: true })
      const warn = vi.fn()
      const cache = createCardCache(bus.events, { log: { warn } })
      const db = {}
      const src = source()
      for (let i = 0; i < 3; i++) {
        await cache.cards(db, [1], NOW, src.load)
        await vi.waitFor(() => expect(warn).toHaveBeenCalledTimes(1))
      }
      expect(src.loads).toHaveLength(3)
      expect(bus.subscribed).toHaveBeenCalledTimes(1)
      vi.advanceTimersByTime(5_001)
      await cache.cards(db, [1], NOW, src.load)
      await vi.waitFor(() => expect(bus.subscribed).toHaveBeenCalledTimes(2))
    } finally {
      vi.useRealTimers()
    }
  })

  it('keeps each database’s cards apart', async () => {
    const { cache, db, src } = await warm()
    const other = source()
    other.titles.set(1, '別のピアノ')
    expect(titles(await cache.cards(db, [1], NOW, src.load))).toEqual(['ピアノ'])
    expect(titles(await cache.cards({}, [1], NOW, other.load))).toEqual(['別のピアノ'])
  })
})
