import { type Breakpoint, breakpoints } from '../../app.config'

const order = Object.entries(breakpoints).sort((a, b) => b[1] - a[1]) as [Breakpoint, number][]

/** The largest breakpoint whose minimum width the viewport reaches. */
export function breakpointFor(width: number): Breakpoint {
  for (const [name, min] of order) if (width >= min) return name
  return 'xs'
}

/** "Mobile" is everything below lg (spec §9). */
export function isMobileWidth(width: number): boolean {
  return width < breakpoints.lg
}

/** Phones are below sm: they get the smaller scroll offset. */
export function isPhoneWidth(width: number): boolean {
  return width < breakpoints.sm
}

export function minWidthQuery(name: Breakpoint): string {
  return `(min-width: ${breakpoints[name]}px)`
}

/** Tablets get a fixed 1200px viewport (spec §9). iPadOS reports itself as a Mac with touch. */
export function isTabletUserAgent(ua: string, maxTouchPoints = 0): boolean {
  if (/iPad/i.test(ua)) return true
  if (/Android/i.test(ua) && !/Mobile/i.test(ua)) return true
  if (/Macintosh/i.test(ua) && maxTouchPoints > 1) return true
  return false
}
