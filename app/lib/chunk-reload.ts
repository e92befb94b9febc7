/** A failed chunk load (a deploy replaced the files) reloads the page, at most once per guard period. */
export function shouldReloadForChunkError(lastReloadAt: number | undefined, now: number, guardMs: number) {
  return lastReloadAt === undefined || Number.isNaN(lastReloadAt) || now - lastReloadAt >= guardMs
}

export function isChunkLoadError(reason: unknown): boolean {
  const message = reason instanceof Error ? reason.message : String(reason ?? '')
  return /Failed to fetch dynamically imported module|Importing a module script failed|error loading dynamically imported module|Unable to preload CSS/i.test(
    message,
  )
}
