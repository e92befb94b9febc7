import { describe, expect, it } from 'vitest'
import { ApiError } from '../server/api-client/errors'
import { RETRY_STATUSES, retryTransientOnce } from './retry'

describe('retryTransientOnce (TanStack Query retry)', () => {
  it('tries a transient failure once more, never twice', () => {
    for (const status of RETRY_STATUSES) {
      const error = new ApiError(status, 'x', 'x')
      expect(retryTransientOnce(0, error), String(status)).toBe(true)
      expect(retryTransientOnce(1, error), String(status)).toBe(false)
    }
    // No status: a network failure or a thrown TypeError in the browser.
    expect(retryTransientOnce(0, new TypeError('Failed to fetch'))).toBe(true)
    expect(retryTransientOnce(1, new TypeError('Failed to fetch'))).toBe(false)
  })

  it('takes a refusal as the answer', () => {
    for (const status of [400, 401, 403, 404, 410, 413, 422])
      expect(retryTransientOnce(0, new ApiError(status, 'x', 'x')), String(status)).toBe(false)
  })

  it('matches the spec’s transient statuses exactly', () => {
    expect(RETRY_STATUSES).toEqual([408, 409, 425, 429, 500, 502, 503, 504])
  })
})
