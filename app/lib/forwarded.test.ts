import { describe, expect, it } from 'vitest'
import { bodyLimit, clientAddress } from './forwarded.js'

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
