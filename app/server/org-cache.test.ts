import { beforeEach, describe, expect, it, vi } from 'vitest'

const listeners: ((info: { sessionId?: string; reason: string }) => void)[] = []
const getOrganizationDeepMe = vi.fn()

vi.mock('@tanstack/react-start/server', () => ({ appendResponseHeader: vi.fn(), getRequest: vi.fn() }))
vi.mock('./auth/flow.server', () => ({
  getSessionAccessToken: vi.fn(),
  onLogout: (listener: (info: { sessionId?: string; reason: string }) => void) => {
    listeners.push(listener)
    return () => {}
  },
}))
vi.mock('./api-client', () => {
  class ApiError extends Error {
    constructor(
      readonly status: number,
      readonly code: string,
      message: string,
    ) {
      super(message)
    }
  }
  return { ApiError, api: { getOrganizationDeepMe: (token: string) => getOrganizationDeepMe(token) } }
})

const { cachedOrganization, clearOrganizationCache } = await import('./org-cache.server')
const { ApiError } = await import('./api-client')

const org = { id: 1, name: '株式会社みらいキッズアカデミー', my_role: 'owner' }

describe('organization deep_me cache', () => {
  beforeEach(() => {
    getOrganizationDeepMe.mockReset()
    clearOrganizationCache('s1')
    clearOrganizationCache('s2')
  })

  it('calls the API once per session while fresh', async () => {
    getOrganizationDeepMe.mockResolvedValue(org)
    expect(await cachedOrganization({ token: 't', sessionId: 's1' })).toEqual(org)
    expect(await cachedOrganization({ token: 't', sessionId: 's1' })).toEqual(org)
    expect(getOrganizationDeepMe).toHaveBeenCalledTimes(1)
    await cachedOrganization({ token: 'u', sessionId: 's2' })
    expect(getOrganizationDeepMe).toHaveBeenCalledTimes(2)
  })

  it('is cleared on logout', async () => {
    getOrganizationDeepMe.mockResolvedValue(org)
    await cachedOrganization({ token: 't', sessionId: 's1' })
    for (const l of listeners) l({ sessionId: 's1', reason: 'logout' })
    await cachedOrganization({ token: 't', sessionId: 's1' })
    expect(getOrganizationDeepMe).toHaveBeenCalledTimes(2)
  })

  it('caches "no organisation" (404) as null, and rethrows other errors', async () => {
    getOrganizationDeepMe.mockRejectedValueOnce(new ApiError(404, 'not_found', 'なし'))
    expect(await cachedOrganization({ token: 't', sessionId: 's1' })).toBeNull()
    expect(await cachedOrganization({ token: 't', sessionId: 's1' })).toBeNull()
    expect(getOrganizationDeepMe).toHaveBeenCalledTimes(1)
    getOrganizationDeepMe.mockRejectedValueOnce(new ApiError(503, 'database_unavailable', '×'))
    await expect(cachedOrganization({ token: 't', sessionId: 's2' })).rejects.toThrow()
  })

  it('expires after the TTL', async () => {
    vi.useFakeTimers()
    try {
      getOrganizationDeepMe.mockResolvedValue(org)
      await cachedOrganization({ token: 't', sessionId: 's1' })
      vi.advanceTimersByTime(31_000)
      await cachedOrganization({ token: 't', sessionId: 's1' })
      expect(getOrganizationDeepMe).toHaveBeenCalledTimes(2)
    } finally {
      vi.useRealTimers()
    }
  })
})
