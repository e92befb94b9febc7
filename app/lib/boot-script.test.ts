import { runInNewContext } from 'node:vm'
import { describe, expect, it } from 'vitest'
import { BOOT_LATEST_MS, bootScript } from './boot-script'

type Element = { tag: string; [k: string]: unknown }
type Entries = { getEntriesByName: (name: string) => unknown[] }

/**
 * A page as far as the boot script sees it: the elements it adds; the clock (ms since the navigation started),
 * frames, timers and paints moved by hand.
 */
function page({
  hidden = false,
  paintTiming = true,
  parsedAt = 50,
  arrival = { transferSize: 20_000 } as { transferSize: number } | null,
  tsr = undefined as unknown,
} = {}) {
  let clock = parsedAt
  const added: Element[] = []
  const frames: (() => void)[] = []
  const timers: { fn: () => void; at: number }[] = []
  const listeners: Record<string, () => void> = {}
  const observers: ((list: Entries) => void)[] = []
  const observed: unknown[] = []
  const paints: string[] = []
  const document = {
    visibilityState: hidden ? 'hidden' : 'visible',
    head: { appendChild: (el: Element) => added.push(el) },
    createElement: (tag: string) => ({ tag }),
    addEventListener: (type: string, fn: () => void) => {
      listeners[type] = fn
    },
  }
  class PerformanceObserver {
    static supportedEntryTypes = ['paint', 'resource']
    constructor(fn: (list: Entries, o: { disconnect: () => void }) => void) {
      let on = true
      observers.push((l) => on && fn(l, { disconnect: () => (on = false) }))
    }
    observe(options: unknown) {
      observed.push(options)
    }
  }
  const window = {
    requestAnimationFrame: (fn: () => void) => frames.push(fn),
    performance: {
      now: () => clock,
      getEntriesByName: (n: string) => paints.filter((x) => x === n),
      getEntriesByType: (type: string) => (type === 'navigation' && arrival ? [arrival] : []),
    },
    $_TSR: tsr,
    ...(paintTiming ? { PerformanceObserver } : {}),
  }
  const setTimeout = (fn: () => void, ms = 0) => timers.push({ fn, at: clock + ms })
  const context = { window, document, setTimeout }
  return {
    added,
    listeners,
    observed,
    run: (code: string) => runInNewContext(code, context),
    frame: () => {
      for (const fn of frames.splice(0)) fn()
    },
    /** Moves the clock to `at` and runs the timers due by then. */
    until: (at: number) => {
      clock = Math.max(clock, at)
      for (const t of timers.splice(0)) (t.at <= clock ? t.fn : () => timers.push(t))()
    },
    paint: (name: string) => {
      paints.push(name)
      for (const o of observers) o({ getEntriesByName: (n) => (n === name ? [name] : []) })
    },
  }
}

const entry = '/assets/index-abc.js'
const preloads = ['/assets/index-abc.js', '/assets/route-def.js']
const loaded = (added: Element[]) =>
  added.map((el) => (el.tag === 'script' ? `script ${el.type} ${el.src}` : `link ${el.rel} ${el.href}`))
const all = [
  'link modulepreload /assets/index-abc.js',
  'link modulepreload /assets/route-def.js',
  'script module /assets/index-abc.js',
]

describe('bootScript', () => {
  it('on a fast network, waits for the first contentful paint, then adds the preloads and the entry once', () => {
    const p = page({ parsedAt: 40 })
    p.run(bootScript(entry, preloads))
    p.frame()
    p.until(100)
    p.paint('first-paint')
    expect(p.added).toEqual([])
    // Buffered: a paint reported between the check and the observer's start is not missed.
    expect(p.observed).toEqual([{ type: 'paint', buffered: true }])
    p.paint('first-contentful-paint')
    expect(loaded(p.added)).toEqual(all)
    expect(p.added[0]?.fetchPriority).toBe('low')
    // The time limit, hiding the tab, or the script run again (a re-added copy): nothing more.
    p.until(BOOT_LATEST_MS)
    p.listeners.visibilitychange?.()
    p.run(bootScript(entry, preloads))
    expect(p.added).toHaveLength(3)
  })

  it(`does not wait past ${BOOT_LATEST_MS} ms after the navigation started for a paint`, () => {
    const p = page({ parsedAt: 40 })
    p.run(bootScript(entry, preloads))
    p.until(BOOT_LATEST_MS - 1)
    expect(p.added).toEqual([])
    p.until(BOOT_LATEST_MS)
    expect(loaded(p.added)).toEqual(all)
    p.paint('first-contentful-paint')
    expect(p.added).toHaveLength(3)
  })

  it('on a slow network, where the page is parsed after that, asks for the code at once', () => {
    const p = page({ parsedAt: 900 })
    p.run(bootScript(entry, preloads))
    expect(loaded(p.added)).toEqual(all)
  })

  it('loads at once when the paint was reported before it ran', () => {
    const p = page()
    p.paint('first-contentful-paint')
    p.run(bootScript(entry, preloads))
    expect(loaded(p.added)).toEqual(all)
  })

  it('without paint timing, loads in the task after the next frame', () => {
    const p = page({ paintTiming: false })
    p.run(bootScript(entry, preloads))
    p.until(60)
    p.frame()
    expect(p.added).toEqual([])
    p.until(60)
    expect(loaded(p.added)).toEqual(all)
  })

  it('loads at once in a hidden tab, where nothing paints, and when the tab is hidden before its paint', () => {
    const hidden = page({ hidden: true })
    hidden.run(bootScript(entry, preloads))
    expect(loaded(hidden.added)).toEqual(all)

    const p = page()
    p.run(bootScript(entry, preloads))
    p.listeners.visibilitychange?.()
    expect(loaded(p.added)).toEqual(all)
  })

  it('cannot end its <script> element, whatever the URLs hold', () => {
    const code = bootScript('/assets/</script><script>alert(1)</script>.js', ['/assets/<!--.js'])
    expect(code).not.toMatch(/<\/|<!--/)
    const p = page({ hidden: true })
    p.run(code)
    expect(loaded(p.added)).toEqual([
      'link modulepreload /assets/<!--.js',
      'script module /assets/</script><script>alert(1)</script>.js',
    ])
  })

  describe('the dehydrated queries (0040)', () => {
    /** The router's dehydrated state as its inline script leaves it: a query with data, one without. */
    const state = () => ({
      router: {
        dehydratedData: {
          query: {
            initial: [
              { state: { dataUpdatedAt: 1_000, status: 'success' } },
              { state: { dataUpdatedAt: 0, status: 'pending' } },
              { state: { dataUpdatedAt: 1_000, status: 'error' } },
            ],
          },
        },
      },
    })
    const times = (tsr: ReturnType<typeof state>) =>
      tsr.router.dehydratedData.query.initial.map((q) => q.state.dataUpdatedAt)

    it('count as fetched now when the document came over the network (a 304 too); one without data, or failed, stays', () => {
      const tsr = state()
      const before = Date.now()
      page({ tsr }).run(bootScript(entry, preloads))
      const [stamped, empty, failed] = times(tsr)
      expect(stamped).toBeGreaterThanOrEqual(before)
      expect(empty).toBe(0)
      expect(failed).toBe(1_000)
    })

    it("keep their render times on a copy from the browser's own cache, or when the browser cannot tell", () => {
      for (const arrival of [{ transferSize: 0 }, null]) {
        const tsr = state()
        page({ tsr, arrival }).run(bootScript(entry, preloads))
        expect(times(tsr)).toEqual([1_000, 0, 1_000])
      }
    })

    it('leave a page without dehydrated state alone, and the app still boots, even on a state it cannot read', () => {
      for (const tsr of [undefined, { router: { dehydratedData: { query: { initial: [null] } } } }]) {
        const p = page({ tsr, hidden: true })
        p.run(bootScript(entry, preloads))
        expect(loaded(p.added)).toEqual(all)
      }
    })
  })
})
