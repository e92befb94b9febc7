import { beforeEach, describe, expect, it, vi } from 'vitest'

const getOrganizationDeepMe = vi.fn()

vi.mock('@tanstack/react-start/server', () => ({ appendResponseHeader: vi.fn(), getRequest: vi.fn() }))
vi.mock('./auth/flow.server', () => ({ getSessionAccessToken: vi.fn() }))
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

const { currentOrganization } = await import('./organization-me.server')
const { ApiError } = await import('./api-client')

const org = { id: 1, name: '株式会社みらいキッズアカデミー', my_role: 'owner' }

describe('the organisation of the signed-in person', () => {
  beforeEach(() => {
    getOrganizationDeepMe.mockReset()
  })

  it('is asked every time: a change made through another instance (a join, a removal) shows at once', async () => {
    getOrganizationDeepMe.mockResolvedValueOnce(null).mockResolvedValueOnce(org)
    expect(await currentOrganization({ token: 't' })).toBeNull()
    expect(await currentOrganization({ token: 't' })).toEqual(org)
    expect(getOrganizationDeepMe).toHaveBeenCalledTimes(2)
  })

  it('answers "no organisation" (404) as null, and rethrows other errors', async () => {
    getOrganizationDeepMe.mockRejectedValueOnce(new ApiError(404, 'not_found', 'なし'))
    expect(await currentOrganization({ token: 't' })).toBeNull()
    getOrganizationDeepMe.mockRejectedValueOnce(new ApiError(503, 'database_unavailable', '×'))
    await expect(currentOrganization({ token: 't' })).rejects.toThrow()
  })
})
