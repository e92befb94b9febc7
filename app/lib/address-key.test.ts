import { describe, expect, it } from 'vitest'
import { addressKey } from './address-key'

describe('addressKey', () => {
  it('keeps an IPv4 address, and reads an IPv4-mapped IPv6 one as its IPv4', () => {
    expect(addressKey('203.0.113.9')).toBe('203.0.113.9')
    expect(addressKey('::ffff:203.0.113.9')).toBe('203.0.113.9')
  })

  it('counts IPv6 addresses by their /64, however they are written', () => {
    const key = addressKey('2001:db8:1:2::1')
    expect(key).toBe('2001:db8:1:2::/64')
    for (const other of [
      '2001:db8:1:2::6',
      '2001:0DB8:0001:0002:ffff:1:2:3',
      '[2001:db8:1:2::9]',
      '2001:db8:1:2::1%eth0',
    ])
      expect(addressKey(other), other).toBe(key)
    expect(addressKey('2001:db8:1:3::1')).not.toBe(key)
    expect(addressKey('::1')).toBe('0:0:0:0::/64')
    expect(addressKey('')).toBe('')
  })
})
