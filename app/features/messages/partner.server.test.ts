import { beforeEach, describe, expect, it, vi } from 'vitest'

const fake = {
  getMe: vi.fn(),
  listDestinations: vi.fn(),
  getTeacher: vi.fn(),
}

vi.mock('@tanstack/react-start/server-only', () => ({}))
vi.mock('~/server/api-client', () => {
  class ApiError extends Error {
    constructor(
      readonly status: number,
      readonly code: string,
      message: string,
    ) {
      super(message)
    }
  }
  return { ApiError, api: fake, meOf: (me: unknown) => me }
})

const { messagePartner } = await import('./partner.server')
const { ApiError } = await import('~/server/api-client')

describe('messagePartner', () => {
  beforeEach(() => {
    fake.getMe.mockResolvedValue({ id: 1, is_teacher: false })
    fake.listDestinations.mockResolvedValue([])
    fake.getTeacher.mockReset()
  })

  it('a teacher with a published class is someone to write to', async () => {
    fake.getTeacher.mockResolvedValue({
      id: 7,
      nickname: 'けんた先生',
      avatar_url: null,
      class_work_count: 2,
    })
    expect(await messagePartner('t', 7)).toEqual({
      id: 7,
      nickname: 'けんた先生',
      avatar_url: null,
      is_teacher: true,
    })
  })

  it('a suspended teacher (410) is nobody to write to, not an error page', async () => {
    fake.getTeacher.mockRejectedValue(new ApiError(410, 'gone', 'このページは公開を終了しました'))
    expect(await messagePartner('t', 7)).toBeNull()
  })

  it('other failures still fail', async () => {
    fake.getTeacher.mockRejectedValue(new ApiError(503, 'database_unavailable', '×'))
    await expect(messagePartner('t', 7)).rejects.toThrow()
  })
})
