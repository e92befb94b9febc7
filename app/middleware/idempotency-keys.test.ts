import { describe, expect, it } from 'vitest'
import { actionOf, keyFor, settle } from './idempotency-keys'

describe('idempotency keys in the browser', () => {
  it('a double tap or a retry after no answer or a 5xx carries the same key', () => {
    const action = actionOf('fn-send', { room_id: 1, body: 'こんにちは' })!
    const first = keyFor(action)
    expect(keyFor(action)).toBe(first) // second tap while the first is in flight
    settle(action, new TypeError('Failed to fetch'))
    expect(keyFor(action)).toBe(first)
    settle(action, Object.assign(new Error('x'), { status: 503 }))
    expect(keyFor(action)).toBe(first)
  })
  it('after a success or a refusal (4xx) the same action gets a new key', () => {
    const action = actionOf('fn-send', { room_id: 1, body: 'もう一度' })!
    const first = keyFor(action)
    settle(action)
    const second = keyFor(action)
    expect(second).not.toBe(first)
    settle(action, Object.assign(new Error('x'), { status: 409 }))
    expect(keyFor(action)).not.toBe(second)
  })
  it('other input or another function is another action; uploads are not keyed', () => {
    expect(actionOf('a', { x: 1 })).not.toBe(actionOf('a', { x: 2 }))
    expect(actionOf('a', { x: 1 })).not.toBe(actionOf('b', { x: 1 }))
    expect(actionOf('a', new FormData())).toBeUndefined()
    expect(keyFor(actionOf('a', { x: 1 })!)).toMatch(/^[0-9a-f]{32}$/)
  })
})
