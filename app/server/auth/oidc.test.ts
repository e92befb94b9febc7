import { ArcticFetchError, OAuth2RequestError, UnexpectedResponseError } from 'arctic'
import { describe, expect, it } from 'vitest'
import { OidcRequestError, withTimeoutAndRetry } from './oidc.server'

describe('withTimeoutAndRetry', () => {
  it('retries network errors and 5xx, up to 3 attempts', async () => {
    let calls = 0
    const result = await withTimeoutAndRetry(async () => {
      calls++
      if (calls === 1) throw new ArcticFetchError(new Error('ECONNRESET'))
      if (calls === 2) throw new UnexpectedResponseError(503)
      return 'ok'
    })
    expect(result).toBe('ok')
    expect(calls).toBe(3)
  })

  it('gives up after 3 attempts', async () => {
    let calls = 0
    const failing = withTimeoutAndRetry(async () => {
      calls++
      throw new UnexpectedResponseError(500)
    })
    await expect(failing).rejects.toMatchObject({ code: 'server_error', status: 500 })
    expect(calls).toBe(3)
  })

  it('does not retry OAuth errors', async () => {
    let calls = 0
    const failing = withTimeoutAndRetry(async () => {
      calls++
      throw new OAuth2RequestError('invalid_grant', 'grant request is invalid', null, null)
    })
    await expect(failing).rejects.toBeInstanceOf(OidcRequestError)
    await expect(failing).rejects.toMatchObject({
      code: 'invalid_grant',
      description: 'grant request is invalid',
    })
    expect(calls).toBe(1)
  })

  it('times out each attempt', async () => {
    let calls = 0
    const slow = withTimeoutAndRetry(
      () => {
        calls++
        return new Promise<string>(() => {})
      },
      { timeoutMs: 20, attempts: 2 },
    )
    await expect(slow).rejects.toMatchObject({ code: 'timeout' })
    expect(calls).toBe(2)
  })
})
