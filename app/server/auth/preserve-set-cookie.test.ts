import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { describe, expect, it } from 'vitest'
import { preserveRepeatedSetCookie } from './preserve-set-cookie.server'

async function serve(patch: boolean) {
  const server = createServer((_req, res) => {
    if (patch) preserveRepeatedSetCookie(res)
    res.setHeader('Vary', 'Origin') // what a middleware in front did
    res.writeHead(302, '', ['location', '/', 'set-cookie', 'a=1; Path=/', 'set-cookie', 'b=2; Path=/'])
    res.end()
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  try {
    const response = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`, {
      redirect: 'manual',
    })
    return {
      cookies: response.headers.getSetCookie(),
      location: response.headers.get('location'),
      status: response.status,
    }
  } finally {
    server.closeAllConnections()
    await new Promise<void>((resolve) => server.close(() => resolve()))
  }
}

describe('preserveRepeatedSetCookie', () => {
  it('keeps every Set-Cookie of a raw header array (Node 20 keeps only the last without it)', async () => {
    const patched = await serve(true)
    expect(patched).toEqual({ cookies: ['a=1; Path=/', 'b=2; Path=/'], location: '/', status: 302 })
  })
})
