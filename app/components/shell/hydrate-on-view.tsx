import { useHydrated } from '@tanstack/react-router'
import {
  memo,
  type ReactNode,
  Suspense,
  use,
  useEffect,
  useId,
  useLayoutEffect,
  useRef,
  useState,
} from 'react'

/**
 * A part of a server-rendered page that hydrates when it is about to be seen, not with the page: its code (a
 * `lazy` component among the children) is fetched only then, so a visitor who never scrolls to it never loads it
 * (docs/decisions/0030). Until then the server's HTML stays on screen as it was rendered.
 *
 * - The part hydrates when it comes within NEAR_PX of the viewport, or when a pointer or focus reaches it.
 * - A plain click inside it before it has hydrated is held and played again once it has: React would drop it (it
 *   stops a discrete event on a boundary it cannot hydrate yet), and a radio would be checked by the browser
 *   behind React's back. Only the last click is kept; a link's opens the page by client navigation then. A click
 *   with a modifier key or another button is left to the browser (a link opens in a new tab, as asked).
 * - Rendered after hydration (a client navigation), it renders its children as soon as their code is there.
 * - While it waits, its children do not re-render: React would drop the server's HTML of a boundary that receives
 *   an update before it has hydrated. They render with the latest props right after. Data they read from the
 *   query cache must stay there meanwhile (an observer above them, see ClassDetailView).
 * - A change of context above (furigana mode turned on) still makes React drop it; a copy of the part's HTML,
 *   read before React took the page over, then stands in until the part comes into view, so that nothing below
 *   the fold disappears. A click on the copy is played on the same place in the part once it has rendered; so is a
 *   press that began on the copy and ends on the part (the browser would drop that click: its press target left).
 */
export function HydrateOnView({ children, testId }: { children: ReactNode; testId?: string }) {
  const hydrated = useHydrated()
  // Decided once, at the first render: on the server and after the page's hydration there is nothing to wait for.
  const [gate] = useState(() => (typeof window === 'undefined' || hydrated ? null : openable()))
  const id = useId()
  const [copy] = useState(() => (gate ? serverCopy(id) : ''))
  const [live, setLive] = useState(gate === null)
  const ref = useRef<HTMLDivElement>(null)
  const held = useRef<{ target: Element; path: number[] } | null>(null)
  const pressed = useRef<{ target: Element; path: number[] } | null>(null)
  const stop = useRef(() => {})

  useEffect(() => {
    const root = ref.current
    if (!gate || !root) return
    const inside = (event: Event) => event.target instanceof Node && root.contains(event.target)
    const onIntent = (event: Event) => {
      if (!inside(event)) return
      gate.open()
      // Where a press began: should the part replace its stand-in copy before the press ends, the browser sends
      // the release to the new element and drops the click (its press target left the page); see the live effect.
      if (
        event instanceof PointerEvent &&
        event.isPrimary &&
        event.button === 0 &&
        event.target instanceof Element
      )
        pressed.current = { target: event.target, path: pathOf(root, event.target) }
    }
    const onClick = (event: MouseEvent) => {
      if (!inside(event) || !(event.target instanceof Element)) return
      gate.open()
      const plain = event.button === 0 && !(event.ctrlKey || event.metaKey || event.shiftKey || event.altKey)
      if (!plain) return
      // Capture on window runs before React's listener on the document: the click never reaches a half-hydrated
      // tree, and its default action (checking a radio, following a link) waits for the replay. A chunk that fails
      // to load reloads the page (vite:preloadError, shell-effects.tsx), so nothing stays held for good.
      event.preventDefault()
      event.stopPropagation()
      pressed.current = null
      held.current = { target: event.target, path: pathOf(root, event.target) }
    }
    const seen = new IntersectionObserver(
      (entries) => {
        if (entries.some((e) => e.isIntersecting)) gate.open()
      },
      { rootMargin: `${NEAR_PX}px 0px` },
    )
    seen.observe(root)
    const intents = ['pointerdown', 'focusin'] as const
    for (const type of intents) window.addEventListener(type, onIntent, true)
    window.addEventListener('click', onClick, true)
    stop.current = () => {
      seen.disconnect()
      for (const type of intents) window.removeEventListener(type, onIntent, true)
      window.removeEventListener('click', onClick, true)
    }
    return () => stop.current()
  }, [gate])

  useEffect(() => {
    if (!live) return
    const click = held.current
    const press = pressed.current
    held.current = null
    pressed.current = null
    const root = ref.current
    if (!root) return
    if (click) {
      // The same element when the part hydrated (even if a list above it changed meanwhile); the same place when
      // the part replaced its stand-in copy.
      const target = click.target.isConnected ? click.target : elementAt(root, click.path)
      target?.dispatchEvent(new MouseEvent('click', { bubbles: true, cancelable: true, composed: true }))
      return
    }
    // A press still going on a copy that is gone: its click will not reach the element now in its place, so the
    // release is played as a click there (a press on the server's HTML kept its element and needs nothing).
    if (!press || press.target.isConnected) return
    return finishPress(elementAt(root, press.path))
  }, [live])

  return (
    // data-hydrated (tests) is left off the server's HTML, as on the first client render, so that they match.
    <div ref={ref} id={id} data-testid={testId} data-hydrated={live && hydrated ? 'true' : undefined}>
      <Frozen
        gate={gate}
        copy={copy}
        live={live}
        onHydrated={() => {
          // Before the replay below, which must reach React this time.
          stop.current()
          setLive(true)
        }}
      >
        {children}
      </Frozen>
    </div>
  )
}

/** How far outside the viewport a part starts to hydrate: its code arrives before it is seen. */
export const NEAR_PX = 300

const Frozen = memo(
  function Frozen({
    gate,
    copy,
    live,
    children,
    onHydrated,
  }: {
    gate: Gate | null
    copy: string
    live: boolean
    children: ReactNode
    onHydrated: () => void
  }) {
    // Once live, nothing stands in: a copy from the page's load would be stale by then.
    const fallback =
      copy && !live ? <div className="contents" data-copy dangerouslySetInnerHTML={{ __html: copy }} /> : null
    return (
      <Suspense fallback={fallback}>
        <Wait gate={gate}>{children}</Wait>
        {gate ? <OnCommit run={onHydrated} /> : null}
      </Suspense>
    )
  },
  // Skip every update until the boundary has hydrated (the children keep their first props, which match the
  // server's HTML); afterwards render as usual.
  (_prev, next) => !next.live,
)

/** Suspends (keeping the server's HTML) until the gate opens; the children, and so their code, render only then. */
function Wait({ gate, children }: { gate: Gate | null; children: ReactNode }) {
  if (gate) use(gate.promise)
  return children
}

function OnCommit({ run }: { run: () => void }) {
  const once = useRef(run)
  useLayoutEffect(() => once.current(), [])
  return null
}

/**
 * The part's HTML as the browser holds it before hydration (the server's markup, escaped by React: user text stays
 * text when parsed again). Empty while React has still to reveal a part streamed after the shell (the first
 * render of a page after a server start): then there is no copy.
 */
function serverCopy(id: string): string {
  const html = document.getElementById(id)?.innerHTML ?? ''
  return html.includes('<template') ? '' : html
}

/** Where a clicked element sits in the part (child indexes), in the server's HTML or in its stand-in copy. */
function pathOf(root: Element, target: Element): number[] {
  const from = root.querySelector(':scope > [data-copy]') ?? root
  const path: number[] = []
  for (let node: Element | null = target; node && node !== from; node = node.parentElement)
    path.unshift(node.parentElement ? Array.prototype.indexOf.call(node.parentElement.children, node) : -1)
  return path
}

function elementAt(root: Element, path: number[]): Element | undefined {
  let node: Element | undefined = root
  for (const i of path) node = node?.children[i]
  return node
}

/**
 * Ends a press whose element was replaced while the button was down: the release (within PRESS_MS) becomes a click
 * on `target` unless the browser delivers one there itself. Returns the clean-up.
 */
function finishPress(target: Element | undefined): (() => void) | undefined {
  if (!target) return
  let clicked = false
  let timer: ReturnType<typeof setTimeout> | undefined
  const onClick = (event: MouseEvent) => {
    if (event.target instanceof Node && target.contains(event.target)) clicked = true
  }
  const onUp = (event: PointerEvent) => {
    if (!event.isPrimary) return
    stop()
    // Released elsewhere (dragged away): no click, as the browser would decide.
    if (!(event.target instanceof Node) || !target.contains(event.target)) return
    // Mouse and touch send the click right after the release, in the same task: by now it has come or not.
    window.addEventListener('click', onClick, true)
    timer = setTimeout(() => {
      window.removeEventListener('click', onClick, true)
      if (!clicked && target.isConnected)
        target.dispatchEvent(new MouseEvent('click', { bubbles: true, cancelable: true, composed: true }))
    }, 0)
  }
  const stop = () => {
    window.removeEventListener('pointerup', onUp, true)
    window.removeEventListener('pointercancel', stop, true)
  }
  window.addEventListener('pointerup', onUp, true)
  window.addEventListener('pointercancel', stop, true)
  const giveUp = setTimeout(stop, PRESS_MS)
  return () => {
    stop()
    clearTimeout(giveUp)
    clearTimeout(timer)
    window.removeEventListener('click', onClick, true)
  }
}

/** How long a press that began before the part rendered may last and still count as a click. */
const PRESS_MS = 2000

type Gate = ReturnType<typeof openable>

function openable() {
  let open = () => {}
  const promise = new Promise<void>((resolve) => {
    open = resolve
  })
  return { promise, open }
}
