import { InvalidInputError } from './input-error'

/**
 * A positive integer id from a path segment or an untyped input: digits only, no sign or exponent, within the
 * int4 range the API accepts (the same rule as the contract's IdString). Anything else is undefined, so a route
 * can answer 404 without asking the API.
 */
export function parseId(value: unknown): number | undefined {
  if (typeof value === 'number')
    return Number.isSafeInteger(value) && value > 0 && value <= 999_999_999 ? value : undefined
  if (typeof value !== 'string' || !/^[1-9]\d{0,8}$/.test(value)) return undefined
  return Number(value)
}

/**
 * ?page=N of a paged list: 2–1000, or undefined (the first page) for anything else.
 *
 * A route's validateSearch names every key it reads, undefined when the value is bad: the router merges what it
 * returns over the raw search, so a key left out would reach the loader as typed (?page=abc → a 500).
 */
export function laterPage(value: unknown): number | undefined {
  const page = parseId(value)
  return page !== undefined && page > 1 && page <= 1000 ? page : undefined
}

/** Validator of a server function that takes one id. */
export function idInput(value: unknown): number {
  const id = parseId(value)
  if (id === undefined) throw new InvalidInputError('IDが正しくありません')
  return id
}

/** Validator of a server function that turns something on or off for one id (follow, favorite). */
export function toggleInput(value: unknown): { id: number; on: boolean } {
  const v = (value ?? {}) as { id?: unknown; on?: unknown }
  if (typeof v.on !== 'boolean') throw new InvalidInputError('入力内容に誤りがあります')
  return { id: idInput(v.id), on: v.on }
}

/** Validator of a server function that reads one page (1–1000, default 1) of something about one id. */
export function idPageInput(value: unknown): { id: number; page: number } {
  const { id, page = 1 } = (value ?? {}) as { id?: unknown; page?: unknown }
  if (typeof page !== 'number' || !Number.isInteger(page) || page < 1 || page > 1000)
    throw new InvalidInputError('ページ番号が正しくありません')
  return { id: idInput(id), page }
}
