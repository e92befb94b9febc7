import { beforeEach, describe, expect, it, vi } from 'vitest'

// The session as the request would have it: signed out, or a token.
const getSessionAccessToken = vi.fn()
const setRefusalStatus = vi.fn()

vi.mock('@tanstack/react-start/server', () => ({ appendResponseHeader: vi.fn(), getRequest: vi.fn() }))
vi.mock('./auth/flow.server', () => ({ getSessionAccessToken: () => getSessionAccessToken() }))
vi.mock('./server-fn-errors.server', () => ({
  setRefusalStatus: (...a: unknown[]) => setRefusalStatus(...a),
}))

const { memberActionResult } = await import('./action-result.server')
const { ApiError } = await import('./api-client/errors')

describe('memberActionResult', () => {
  beforeEach(() => {
    getSessionAccessToken.mockReset()
    setRefusalStatus.mockReset()
  })

  it('a session that ended is a 401 refusal the page can act on (the login modal), and the write is not sent', async () => {
    getSessionAccessToken.mockResolvedValue(undefined)
    const run = vi.fn()
    expect(await memberActionResult(run)).toEqual({
      ok: false,
      status: 401,
      code: 'unauthorized',
      message: 'ログインしてください',
      fieldErrors: {},
    })
    expect(run).not.toHaveBeenCalled()
    expect(setRefusalStatus).toHaveBeenCalledWith(401)
  })

  it('a refusal keeps the API’s status, code and Retry-After for the browser', async () => {
    getSessionAccessToken.mockResolvedValue({ accessToken: 'tok' })
    const refused = await memberActionResult(async () => {
      throw new ApiError(429, 'rate_limited', '回数の上限に達しました', { retryAfterS: 42 })
    })
    expect(refused).toMatchObject({ ok: false, status: 429, code: 'rate_limited' })
    expect(setRefusalStatus).toHaveBeenCalledWith(429, 'rate_limited', 42)
  })

  it('a signed-in member’s write runs with their token', async () => {
    getSessionAccessToken.mockResolvedValue({ accessToken: 'tok' })
    expect(await memberActionResult(async (token) => `sent with ${token}`)).toEqual({
      ok: true,
      data: 'sent with tok',
    })
  })
})
