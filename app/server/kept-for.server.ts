import '@tanstack/react-start/server-only'

/**
 * A value built at most once per `ttlMs` on this instance, with one build in flight at a time (concurrent callers
 * share it). A failed build keeps nothing. For answers that are costly and may be a little old by design (the
 * sitemap, which crawlers read now and then and anyone could ask for in a loop).
 */
export function keptFor<T>(ttlMs: number, build: () => Promise<T>, clock: () => number = Date.now) {
  let kept: { value: T; until: number } | undefined
  let building: Promise<T> | undefined
  return async (): Promise<T> => {
    if (kept && kept.until > clock()) return kept.value
    building ??= build()
      .then((value) => {
        kept = { value, until: clock() + ttlMs }
        return value
      })
      .finally(() => {
        building = undefined
      })
    return building
  }
}
