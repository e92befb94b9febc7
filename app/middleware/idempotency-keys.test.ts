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
  it('a key kept for a retry goes once another write succeeds (the member moved on), unless its attempt is on its way', () => {
    const reserve = actionOf('fn-reserve', { schedule_id: 7, learner_id: null })!
    const lost = keyFor(reserve)
    settle(reserve, new TypeError('Failed to fetch')) // the answer was lost; the booking was made
    const cancel = actionOf('fn-cancel', { purchaseId: 3 })!
    keyFor(cancel)
    settle(cancel) // found it and cancelled it
    expect(keyFor(reserve)).not.toBe(lost) // booking again is a new booking, not the old one replayed
    // An attempt still on its way keeps its key for its own retry.
    const send = actionOf('fn-send', { room_id: 2, body: '途中' })!
    const inFlight = keyFor(send)
    const other = actionOf('fn-follow', { id: 1 })!
    keyFor(other)
    settle(other)
    settle(send, new TypeError('Failed to fetch'))
    expect(keyFor(send)).toBe(inFlight)
  })

  it('other input or another function is another action; uploads are not keyed', () => {
    expect(actionOf('a', { x: 1 })).not.toBe(actionOf('a', { x: 2 }))
    expect(actionOf('a', { x: 1 })).not.toBe(actionOf('b', { x: 1 }))
    expect(actionOf('a', new FormData())).toBeUndefined()
    expect(keyFor(actionOf('a', { x: 1 })!)).toMatch(/^[0-9a-f]{32}$/)
  })
})
