/** Spec §9: the HTTP client retries these statuses (idempotent calls only). */
export const RETRY_STATUSES: readonly number[] = [408, 409, 425, 429, 500, 502, 503, 504]

/**
 * TanStack Query's retry rule: one more try, only for a failure that may pass — a transient status (RETRY_STATUSES)
 * or an error without a status (a network failure). A refusal (404 of a class that is gone, 401, 403, 422) is the
 * answer: trying it again after Query's one-second back-off only delayed it, on the server a missing class's page
 * by 1.2 s.
 */
export function retryTransientOnce(failureCount: number, error: unknown): boolean {
  if (failureCount >= 1) return false
  const status =
    typeof error === 'object' && error !== null ? (error as { status?: unknown }).status : undefined
  return typeof status !== 'number' || RETRY_STATUSES.includes(status)
}
