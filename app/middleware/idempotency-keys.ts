/**
 * The browser's idempotency keys (app/middleware/idempotency.ts): a call reuses the key of an earlier call of the
 * same function with the same input until one of them succeeds — so a double tap, or a retry after a network
 * error or a 5xx, carries the same key — and a later identical action (the same message sent again on purpose)
 * gets a new one. Loaded with the first write, not with every page (0008).
 */

const pending = new Map<string, string>()

function newKey(): string {
  // crypto.randomUUID needs a secure context; a demo served over plain http on a LAN address is not one.
  const bytes = crypto.getRandomValues(new Uint8Array(16))
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('')
}

/** The action a call performs: the function and its input (FormData uploads are not keyed). */
export function actionOf(functionId: string, data: unknown): string | undefined {
  if (typeof FormData !== 'undefined' && data instanceof FormData) return undefined
  return `${functionId}:${JSON.stringify(data ?? null)}`
}

/** The key for this action: the pending one of an earlier unfinished attempt, or a new one. */
export function keyFor(action: string): string {
  let key = pending.get(action)
  if (!key) {
    key = newKey()
    pending.set(action, key)
  }
  return key
}

/** After an attempt: keep the key only when the same action may be retried (no answer, or our fault). */
export function settle(action: string, error?: unknown): void {
  const status = (error as { status?: unknown } | undefined)?.status
  const retryable = error !== undefined && (typeof status !== 'number' || status >= 500)
  if (!retryable) pending.delete(action)
}
