import type { HttpBindings } from '@hono/node-server'
import { describe, expect, it } from 'vitest'
import { withCallerAddress } from './api-caller-address.server'

const from = (remoteAddress: string) =>
  ({ incoming: { socket: { remoteAddress } } }) as unknown as HttpBindings

describe('withCallerAddress', () => {
  // What the API would see: the address it records, and the body it reads.
  const seen = withCallerAddress(
    async (request) =>
      Response.json({ address: request.headers.get('x-real-ip'), body: await request.text() }),
    ['10.0.0.5'],
  )
  const post = (claimed: string | null) =>
    new Request('http://api.test/v1/admin/notices', {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(claimed ? { 'x-real-ip': claimed } : {}) },
      body: JSON.stringify({ title: 'お知らせ' }),
    })

  it('an API client cannot write another address into the audit log: its own is recorded', async () => {
    const res = await seen(post('203.0.113.9'), from('198.51.100.7'))
    expect(await res.json()).toEqual({ address: '198.51.100.7', body: '{"title":"お知らせ"}' })
  })

  it("the app's server on this host, or a trusted peer, passes the browser's address", async () => {
    expect(await (await seen(post('203.0.113.9'), from('127.0.0.1'))).json()).toMatchObject({
      address: '203.0.113.9',
    })
    expect(await (await seen(post('203.0.113.9'), from('10.0.0.5'))).json()).toMatchObject({
      address: '203.0.113.9',
    })
    expect(await (await seen(post(null), from('::1'))).json()).toMatchObject({ address: '::1' })
  })
})
