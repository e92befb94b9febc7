import { describe, expect, it } from 'vitest'
import { ApiError } from './errors'
import { meOf } from './me'

const user = { id: 1, is_teacher: true } as never

describe('meOf', () => {
  it('answers the member, or undefined for one not registered yet', () => {
    expect(meOf({ status: 200, data: user })).toBe(user)
    expect(meOf({ status: 404, code: 'unregistered', message: '未登録' })).toBeUndefined()
  })

  it('throws what is not an answer, so that a teacher is never shown as someone who does not teach', () => {
    for (const status of [503, 504, 401, 403]) {
      let thrown: unknown
      try {
        meOf({ status, code: 'x', message: 'メッセージ' })
      } catch (error) {
        thrown = error
      }
      expect(thrown, String(status)).toBeInstanceOf(ApiError)
      expect((thrown as ApiError).status).toBe(status)
    }
    expect(() => meOf({ status: 503 })).toThrow('サーバーに接続できませんでした')
  })
})
