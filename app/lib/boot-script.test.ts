import { runInNewContext } from 'node:vm'
import { describe, expect, it } from 'vitest'
import { BOOT_FALLBACK_MS, bootScript } from './boot-script'

type Element = { tag: string; [k: string]: unknown }
type Entries = { getEntriesByName: (name: string) => unknown[] }

/** A page as far as the boot script sees it: the elements it adds; frames, timers and paints run by hand. */
function page({ hidden = false, paintTiming = true } = {}) {
  const added: Element[] = []
  const frames: (() => void)[] = []
  const timers: { fn: () => void; ms: number }[] = []
  const listeners: Record<string, () => void> = {}
  const observers: ((list: Entries, o: { disconnect: () => void }) => void)[] = []
  const paints: string[] = []
  const entries = (names: string[]): Entries => ({ getEntriesByName: (n) => names.filter((x) => x === n) })
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
    observe() {}
  }
  const window = {
    requestAnimationFrame: (fn: () => void) => frames.push(fn),
    performance: { getEntriesByName: (n: string) => paints.filter((x) => x === n) },
    ...(paintTiming ? { PerformanceObserver } : {}),
  }
  const context = { window, document, setTimeout: (fn: () => void, ms = 0) => timers.push({ fn, ms }) }
  return {
    added,
    listeners,
    run: (code: string) => runInNewContext(code, context),
    frame: () => {
      for (const fn of frames.splice(0)) fn()
    },
    /** Runs the timers due within `ms`. */
    timers: (ms = 0) => {
      for (const t of timers.splice(0)) (t.ms <= ms ? t.fn : () => timers.push(t))()
    },
    paint: (name: string) => {
      paints.push(name)
      for (const o of observers) o(entries([name]), { disconnect() {} })
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
  it('adds nothing before the first contentful paint is reported, then the preloads and the entry once', () => {
    const p = page()
    p.run(bootScript(entry, preloads))
    p.frame()
    p.timers()
    p.paint('first-paint')
    expect(p.added).toEqual([])
    p.paint('first-contentful-paint')
    expect(loaded(p.added)).toEqual(all)
    expect(p.added[0]?.fetchPriority).toBe('low')
    // Hiding the tab, the fallback timer, or the script run again (a re-added copy): nothing more.
    p.listeners.visibilitychange?.()
    p.timers(BOOT_FALLBACK_MS)
    p.run(bootScript(entry, preloads))
    expect(p.added).toHaveLength(3)
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
    p.timers()
    expect(p.added).toEqual([])
    p.frame()
    expect(p.added).toEqual([])
    p.timers()
    expect(loaded(p.added)).toEqual(all)
  })

  it('loads at once in a hidden tab, where no frame comes, and when the tab is hidden before its paint', () => {
    const hidden = page({ hidden: true })
    hidden.run(bootScript(entry, preloads))
    expect(loaded(hidden.added)).toEqual(all)

    const p = page()
    p.run(bootScript(entry, preloads))
    p.listeners.visibilitychange?.()
    expect(loaded(p.added)).toEqual(all)
  })

  it(`starts the app after ${BOOT_FALLBACK_MS} ms when no paint is ever reported`, () => {
    const p = page()
    p.run(bootScript(entry, preloads))
    p.timers(BOOT_FALLBACK_MS - 1)
    expect(p.added).toEqual([])
    p.timers(BOOT_FALLBACK_MS)
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
})
