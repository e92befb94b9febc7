import { describe, expect, it } from 'vitest'
import { readUnsubscribeToken, unsubscribeToken } from './unsubscribe.server'

const secret = 'unit-test-secret-0123456789abcdef0123456789'

describe('unsubscribe tokens', () => {
  it('name one member and one optional kind, and nothing else', () => {
    const token = unsubscribeToken(secret, 42, 'message')
    expect(token).toMatch(/^42\.message\.[A-Za-z0-9_-]{43}$/)
    expect(readUnsubscribeToken(secret, token)).toEqual({ userId: 42, kind: 'message' })
  })

  it('refuse another secret, an edited member or kind, a mandatory or unknown kind and junk', () => {
    const token = unsubscribeToken(secret, 42, 'message')
    const mac = token.split('.')[2]
    expect(readUnsubscribeToken(`${secret}x`, token)).toBeUndefined()
    expect(readUnsubscribeToken(secret, `43.message.${mac}`)).toBeUndefined()
    expect(readUnsubscribeToken(secret, `42.reminder.${mac}`)).toBeUndefined()
    expect(readUnsubscribeToken(secret, unsubscribeToken(secret, 42, 'refund' as never))).toBeUndefined()
    expect(readUnsubscribeToken(secret, unsubscribeToken(secret, 42, 'nothing' as never))).toBeUndefined()
    for (const junk of [
      '',
      '42',
      '42.message',
      `0.message.${mac}`,
      `-1.message.${mac}`,
      `${token}=`,
      'a'.repeat(300),
    ])
      expect(readUnsubscribeToken(secret, junk)).toBeUndefined()
  })
})
