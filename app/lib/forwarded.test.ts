import { describe, expect, it } from 'vitest'
import { apiCallerAddress, bodyLimit, clientAddress } from './forwarded.js'

describe('clientAddress', () => {
  it('is the socket peer unless a proxy is trusted', () => {
    expect(clientAddress('203.0.113.9', '10.0.0.2', false)).toBe('10.0.0.2')
    expect(clientAddress(undefined, undefined, false)).toBe('')
  })

  it('behind a trusted proxy, is the entry the proxy appended, never one the client wrote', () => {
    // The client sent "X-Forwarded-For: 198.51.100.7"; the load balancer appended the real address.
    expect(clientAddress('198.51.100.7, 203.0.113.9', '10.0.0.2', true)).toBe('203.0.113.9')
    expect(clientAddress('203.0.113.9', '10.0.0.2', true)).toBe('203.0.113.9')
    expect(clientAddress(['1.1.1.1, 2.2.2.2'], '10.0.0.2', true)).toBe('2.2.2.2')
    expect(clientAddress(' , ', '10.0.0.2', true)).toBe('10.0.0.2')
    expect(clientAddress(undefined, '10.0.0.2', true)).toBe('10.0.0.2')
  })
})

describe('apiCallerAddress', () => {
  it('takes the address the app passes from this host or a trusted peer', () => {
    expect(apiCallerAddress('203.0.113.9', '127.0.0.1')).toBe('203.0.113.9')
    expect(apiCallerAddress('203.0.113.9', '::1')).toBe('203.0.113.9')
    expect(apiCallerAddress('203.0.113.9', '::ffff:127.0.0.1')).toBe('203.0.113.9')
    expect(apiCallerAddress('203.0.113.9', '10.0.0.5', ['10.0.0.5'])).toBe('203.0.113.9')
    expect(apiCallerAddress('203.0.113.9', '::ffff:10.0.0.5', ['10.0.0.5'])).toBe('203.0.113.9')
    // The app called without a browser behind it: its own address.
    expect(apiCallerAddress(null, '127.0.0.1')).toBe('127.0.0.1')
  })

  it('replaces what any other caller claims with its own address', () => {
    expect(apiCallerAddress('203.0.113.9', '198.51.100.7')).toBe('198.51.100.7')
    expect(apiCallerAddress('127.0.0.1', '198.51.100.7', ['10.0.0.5'])).toBe('198.51.100.7')
    expect(apiCallerAddress('203.0.113.9', undefined)).toBe('')
  })
})

describe('bodyLimit', () => {
  const limits = { maxJsonBytes: 1_000_000, maxUploadBytes: 10_000_000 }
  it('allows the upload limit only for multipart server function calls', () => {
    expect(bodyLimit('/_serverFn/abc', 'multipart/form-data; boundary=x', limits)).toBe(10_000_000)
    expect(bodyLimit('/_serverFn/abc', 'application/json', limits)).toBe(1_000_000)
  })

  it('a multipart body elsewhere (logout, unsubscribe, webhooks) gets the JSON limit', () => {
    for (const path of ['/auth/logout', '/mail/unsubscribe', '/webhooks/stripe', '/'])
      expect(bodyLimit(path, 'multipart/form-data; boundary=x', limits), path).toBe(1_000_000)
  })
})
