import * as z from 'zod/mini'

/**
 * The typed search parameters of /class_search (PRODUCT.md). The URL is the whole state of the page, so a
 * bad value (hand-edited or from an old link) falls back to its default instead of failing the page.
 * zod/mini keeps this out of the first-load bundle's weight (ARCHITECTURE.md).
 */
export const sorts = ['new', 'start', 'price_asc', 'price_desc', 'popular'] as const
export type Sort = (typeof sorts)[number]

export const sortLabels: Record<Sort, string> = {
  new: '新着順',
  start: '開催日が近い順',
  price_asc: '料金が安い順',
  price_desc: '料金が高い順',
  popular: '人気順',
}

const MAX_YEN = 10_000_000

const id = z.catch(z.optional(z.coerce.number().check(z.int(), z.positive(), z.lte(999_999_999))), undefined)
const yen = z.catch(z.optional(z.coerce.number().check(z.int(), z.gte(0), z.lte(MAX_YEN))), undefined)
const day = z.catch(
  z.optional(
    z.string().check(
      z.regex(/^\d{4}-\d{2}-\d{2}$/),
      z.refine(
        (v) =>
          !Number.isNaN(Date.parse(`${v}T00:00:00Z`)) &&
          new Date(`${v}T00:00:00Z`).toISOString().startsWith(v),
      ),
    ),
  ),
  undefined,
)

const schema = z.object({
  q: z.catch(
    z.optional(
      z.pipe(
        z.union([z.string(), z.number()]),
        z.transform((v) => String(v).trim().slice(0, 100) || undefined),
      ),
    ),
    undefined,
  ),
  category: id,
  grade: id,
  style: id,
  price_min: yen,
  price_max: yen,
  from: day,
  to: day,
  sort: z.catch(z.optional(z.enum(sorts)), undefined),
  page: z.catch(z.optional(z.coerce.number().check(z.int(), z.gte(1), z.lte(1000))), undefined),
})

export type ClassSearchParams = {
  q?: string
  category?: number
  grade?: number
  style?: number
  price_min?: number
  price_max?: number
  from?: string
  to?: string
  sort?: Sort
  page?: number
}

/** validateSearch of /class_search: never throws; drops unknown and invalid values. */
export function parseClassSearch(input: Record<string, unknown>): ClassSearchParams {
  const parsed = schema.parse(input) as ClassSearchParams
  const out: ClassSearchParams = {}
  for (const [k, v] of Object.entries(parsed)) {
    if (v !== undefined) (out as Record<string, unknown>)[k] = v
  }
  // A reversed price or date range is read the way the person meant it.
  if (out.price_min !== undefined && out.price_max !== undefined && out.price_min > out.price_max) {
    ;[out.price_min, out.price_max] = [out.price_max, out.price_min]
  }
  if (out.from && out.to && out.from > out.to) [out.from, out.to] = [out.to, out.from]
  if (out.page === 1) delete out.page
  return out
}

/** True when any filter narrows the results (for the empty state's advice). */
export function hasFilters(p: ClassSearchParams): boolean {
  return Boolean(
    p.q ||
      p.category ||
      p.grade ||
      p.style ||
      p.price_min !== undefined ||
      p.price_max !== undefined ||
      p.from ||
      p.to,
  )
}
