import '@tanstack/react-start/server-only'

/** A failed /v1 call: the API's `{ code, message }`, or 502 when its answer did not match the contract. */
export class ApiError extends Error {
  override name = 'ApiError'
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    options?: { cause?: unknown; issues?: unknown; retryAfterS?: number },
  ) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause })
    this.issues = options?.issues
    this.retryAfterS = options?.retryAfterS
  }
  readonly issues: unknown
  /** The API's Retry-After (seconds) on a refusal such as 429, passed on to the browser. */
  readonly retryAfterS: number | undefined
}
