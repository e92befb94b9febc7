import { describe, expect, it } from 'vitest'
import { inProcessTransport } from './transport'
import { withWriteKeys } from './write-keys.server'

describe('the keys of a server function’s /v1 writes', () => {
  const seen: (string | null)[] = []
  const transport = inProcessTransport(async () => ({
    fetch: (request: Request) => {
      seen.push(request.headers.get('idempotency-key'))
      return Response.json({})
    },
  }))
  const run = async () => {
    await transport({ method: 'GET', path: '/v1/rooms' })
    await transport({ method: 'POST', path: '/v1/rooms/1/messages', body: { body: 'こんにちは' } })
    await transport({ method: 'PATCH', path: '/v1/rooms/1/read' })
  }

  it('derive one key per write from the browser’s key, the same on a retry; none for reads or outside a run', async () => {
    seen.length = 0
    await withWriteKeys('browser-key-1', run)
    const first = [...seen]
    expect(first[0]).toBeNull()
    expect(first[1]).toMatch(/^bff-[\w-]{43}$/)
    expect(first[2]).toMatch(/^bff-[\w-]{43}$/)
    expect(first[1]).not.toBe(first[2])
    // The browser's retry under the same key: the same keys, so /v1 answers the writes it already took.
    seen.length = 0
    await withWriteKeys('browser-key-1', run)
    expect(seen).toEqual(first)
    // Another request at the same place (the function wrote what it read first, and that changed): another key.
    seen.length = 0
    await withWriteKeys('browser-key-1', async () => {
      await transport({ method: 'POST', path: '/v1/rooms/1/messages', body: { body: 'こんにちは！' } })
    })
    expect(seen[0]).toMatch(/^bff-/)
    expect(seen[0]).not.toBe(first[1])
    // Another action (another key) gets other keys; without a key, none are sent.
    seen.length = 0
    await withWriteKeys('browser-key-2', run)
    expect(seen[1]).not.toBe(first[1])
    seen.length = 0
    await run()
    expect(seen).toEqual([null, null, null])
  })
})
