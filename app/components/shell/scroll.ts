import { isPhoneWidth } from '~/lib/breakpoints'
import { appConfig } from '../../../app.config'

const { scroll } = appConfig

const easeInOut = (t: number) => (t < 0.5 ? 2 * t * t : 1 - (-2 * t + 2) ** 2 / 2)

/** Animated scroll to a position over the spec's 300 ms; instant when the user prefers reduced motion. */
export function scrollToY(y: number, duration: number = scroll.duration) {
  const target = Math.max(0, Math.round(y))
  if (duration <= 0 || window.matchMedia('(prefers-reduced-motion: reduce)').matches) {
    window.scrollTo(0, target)
    return
  }
  const start = window.scrollY
  const startedAt = performance.now()
  const step = (now: number) => {
    const t = Math.min(1, (now - startedAt) / duration)
    window.scrollTo(0, start + (target - start) * easeInOut(t))
    if (t < 1) requestAnimationFrame(step)
  }
  requestAnimationFrame(step)
}

/** The scroll offset of programmatic scrolls: 150 on phones, 180 otherwise (spec §9). */
export function scrollOffset(width = window.innerWidth) {
  return isPhoneWidth(width) ? scroll.offsetPhone : scroll.offsetOther
}

/** Scroll an element into view below the sticky header, with the spec's offset. */
export function scrollToElement(el: Element, offset = scrollOffset()) {
  scrollToY(el.getBoundingClientRect().top + window.scrollY - offset)
}

/** Anchor targets are offset by 1.2 × the header height (spec §2). */
export function scrollToAnchor(id: string) {
  const el = document.getElementById(decodeURIComponent(id))
  if (!el) return false
  const header = document.getElementById('site-header')
  const offset = (header?.offsetHeight ?? 0) * scroll.anchorHeaderFactor
  scrollToY(el.getBoundingClientRect().top + window.scrollY - offset)
  return true
}

/** The classes the page carries for its scroll position: `scrolled` at ≥ 10 px, `scroll-end` near the bottom. */
export function scrollClasses(scrollY: number, viewportHeight: number, documentHeight: number) {
  return {
    scrolled: scrollY >= scroll.scrolledAt,
    scrollEnd: scrollY + viewportHeight >= documentHeight - viewportHeight * scroll.endFraction,
  }
}
