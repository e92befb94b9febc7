import { beforeAll, describe, expect, it, vi } from 'vitest'

// A secret of its own, so that nothing is written to a data folder.
vi.stubEnv('SESSION_SECRET', 'response-policy-test-secret-0123456789abcdef')
vi.stubEnv('QUERY_COUNT_HEADER', '')

const { readCached, readLive, trackPageReads } = await import('../db/page-reads')
const { answerRenderedPage, applyResponsePolicy, keptPagesForTest, newNonce, shareVisitorPage } =
  await import('./response-policy.server')
const { FURIGANA_COOKIE } = await import('./furigana-cookie.server')
const { authCookieNames, FLASH_COOKIE } = await import('./auth/session.server')
const { getConfig } = await import('./config')

const ORIGIN = 'http://localhost:3000'
const get = (path: string, headers: Record<string, string> = {}) =>
  new Request(`${ORIGIN}${path}`, { headers })

/** A visitor's page as the render answers it, through the response policy, while `reads` records its reads. */
async function render(path: string, reads: () => void, request = get(path)) {
  return trackPageReads(async () => {
    const nonce = newNonce()
    const page = new Response(`<!doctype html><script nonce="${nonce}">1</script><p>${path}</p>`, {
      headers: { 'content-type': 'text/html; charset=utf-8' },
    })
    reads()
    const pathname = new URL(request.url).pathname
    return shareVisitorPage(request, applyResponsePolicy(request, pathname, page, nonce), nonce)
  })
}

describe('visitor pages kept while their reads are current (docs/decisions/0033)', () => {
  let session = ''
  beforeAll(() => {
    session = authCookieNames(getConfig().secureCookies).session
  })

  it('are answered again as rendered, byte for byte, until a read is no longer current', async () => {
    let current = true
    const first = await render('/kept', () => readCached(() => current))
    expect(first.headers.get('cache-control')).toContain('s-maxage')
    const body = await first.text()
    const again = await answerRenderedPage(get('/kept'))
    expect(again).toBeDefined()
    expect(await again!.text()).toBe(body)
    for (const name of ['etag', 'content-security-policy', 'cache-control', 'vary', 'content-type'])
      expect(again!.headers.get(name), name).toBe(first.headers.get(name))
    // A revalidation gets its 304; a client that takes brotli gets the page compressed.
    const revalidated = await answerRenderedPage(
      get('/kept', { 'if-none-match': first.headers.get('etag')! }),
    )
    expect(revalidated?.status).toBe(304)
    const compressed = await answerRenderedPage(get('/kept', { 'accept-encoding': 'br' }))
    expect(compressed?.headers.get('content-encoding')).toBe('br')
    // Kept once, as bytes: not also as text, which the cache's size bound does not count (its strings are the
    // digest, the nonce and the ETag).
    for (const kept of keptPagesForTest())
      for (const value of Object.values(kept))
        if (typeof value === 'string') expect(value.length).toBeLessThan(100)
    expect(keptPagesForTest().some((kept) => new TextDecoder().decode(kept.bytes) === body)).toBe(true)

    current = false
    expect(answerRenderedPage(get('/kept'))).toBeUndefined()
    // Forgotten, not merely skipped: it is rendered (and kept) again from current reads.
    current = true
    expect(answerRenderedPage(get('/kept'))).toBeUndefined()
  })

  it('of two addresses are never answered with each other’s bytes, even when they differ only where a render time could', async () => {
    // A keyword a visitor chose that looks like a serialized render time ("u:" and 13 digits).
    const first = await render('/class_search?q=u:1111111111111', () => readCached(() => true))
    const second = await render('/class_search?q=u:2222222222222', () => readCached(() => true))
    expect(await first.text()).toContain('u:1111111111111')
    expect(await second.text()).toContain('u:2222222222222')
    expect(second.headers.get('etag')).not.toBe(first.headers.get('etag'))
  })

  it('are not kept when the render read something no cache answered, or was not recorded', async () => {
    await render('/live', () => {
      readCached(() => true)
      readLive()
    })
    expect(answerRenderedPage(get('/live'))).toBeUndefined()
    const nonce = newNonce()
    const untracked = applyResponsePolicy(
      get('/untracked'),
      '/untracked',
      new Response('<p>untracked</p>', { headers: { 'content-type': 'text/html' } }),
      nonce,
    )
    await shareVisitorPage(get('/untracked'), untracked, nonce)
    expect(answerRenderedPage(get('/untracked'))).toBeUndefined()
  })

  it('are never answered to a member, a device in furigana mode, an API client, another address or method', async () => {
    await render('/shared', () => readCached(() => true))
    expect(answerRenderedPage(get('/shared'))).toBeDefined()
    expect(answerRenderedPage(get('/shared', { cookie: `${session}=abc` }))).toBeUndefined()
    expect(answerRenderedPage(get('/shared', { cookie: `${FURIGANA_COOKIE}=1` }))).toBeUndefined()
    expect(answerRenderedPage(get('/shared', { authorization: 'Bearer x' }))).toBeUndefined()
    // A message the login flow left for the next page is shown (and cleared) by a render.
    expect(answerRenderedPage(get('/shared', { cookie: `${FLASH_COOKIE}=x` }))).toBeUndefined()
    // Start answers 406 to a page request that does not take HTML; so does a kept page's address.
    expect(answerRenderedPage(get('/shared', { accept: 'application/json' }))).toBeUndefined()
    expect(answerRenderedPage(get('/shared', { accept: 'text/html,application/xhtml+xml' }))).toBeDefined()
    expect(answerRenderedPage(get('/shared?page=2'))).toBeUndefined()
    expect(answerRenderedPage(new Request(`${ORIGIN}/shared`, { method: 'HEAD' }))).toBeUndefined()
    // A member's render is not kept for visitors either.
    await render('/member', () => readCached(() => true), get('/member', { cookie: `${session}=abc` }))
    expect(answerRenderedPage(get('/member'))).toBeUndefined()
  })
})
