/**
 * Tolerant readers for typed URL search parameters: each returns the value when it is valid and undefined
 * otherwise, so a hand-edited or old link falls back to the default instead of failing the page.
 *
 * Plain functions rather than a schema library on purpose: validateSearch is part of the route tree, which is
 * never code-split, so whatever it imports is in every page's first-load JavaScript (zod/mini's core alone was
 * ~14 KB gzip there). See docs/decisions/0006-search-params-without-zod.md.
 */

/** A number from a number or a numeric string (the router parses `?page=2` to 2 but `?page=02` stays text). */
function toNumber(value: unknown): number {
  if (typeof value === 'number') return value
  if (typeof value === 'string' && /^\s*-?\d+(\.\d+)?\s*$/.test(value)) return Number(value)
  return Number.NaN
}

/**
 * A string or number as text; anything else (the router JSON-parses `?x={…}` and `?x=[…]` into objects, whose
 * String() may throw) undefined.
 */
export function scalarText(value: unknown): string | undefined {
  return typeof value === 'string' || typeof value === 'number' ? String(value) : undefined
}

/** An integer within [min, max]. */
export function intIn(value: unknown, min: number, max: number): number | undefined {
  const n = toNumber(value)
  return Number.isInteger(n) && n >= min && n <= max ? n : undefined
}

/**
 * Text (a number counts as its digits), control characters as spaces (a NUL would reach the database and be
 * refused there), trimmed and cut to `max` characters; empty is undefined.
 */
export function textUpTo(value: unknown, max: number): string | undefined {
  if (typeof value !== 'string' && typeof value !== 'number') return undefined
  // biome-ignore lint/suspicious/noControlCharactersInRegex: removing control characters is the point
  const text = String(value).replace(/[\u0000-\u001f\u007f]/g, ' ')
  return text.trim().slice(0, max) || undefined
}

/** The years a search date may name: lessons are held in this century (the database has no year 0). */
export const SEARCH_YEARS = { min: 2000, max: 2099 } as const

/** A calendar day YYYY-MM-DD that exists (2026-02-30 does not), in SEARCH_YEARS. */
export function calendarDay(value: unknown): string | undefined {
  if (typeof value !== 'string' || !/^\d{4}-\d{2}-\d{2}$/.test(value)) return undefined
  const year = Number(value.slice(0, 4))
  if (year < SEARCH_YEARS.min || year > SEARCH_YEARS.max) return undefined
  const t = Date.parse(`${value}T00:00:00Z`)
  return !Number.isNaN(t) && new Date(t).toISOString().startsWith(value) ? value : undefined
}

/** One of a fixed list of words. */
export function oneOf<T extends string>(value: unknown, allowed: readonly T[]): T | undefined {
  return typeof value === 'string' && (allowed as readonly string[]).includes(value)
    ? (value as T)
    : undefined
}
