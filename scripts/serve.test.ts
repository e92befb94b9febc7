import { createServer } from 'node:http'
import { describe, expect, it } from 'vitest'
import { keepConnectionsForBalancers } from './serve.mjs'

describe('the Node server behind a load balancer', () => {
  it('keeps idle connections longer than a balancer does (60 s), and headers a little longer still', () => {
    const server = createServer()
    keepConnectionsForBalancers(server)
    expect(server.keepAliveTimeout).toBeGreaterThan(60_000)
    expect(server.headersTimeout).toBeGreaterThan(server.keepAliveTimeout)
  })
})
