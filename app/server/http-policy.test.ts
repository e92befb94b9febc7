import { createHash, createHmac } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import {
  cacheControlFor,
  contentSecurityPolicy,
  etagMatches,
  RENDER_TIMES,
  renderTimesIn,
  type StablePage,
  stabilizePage,
} from './http-policy'

describe('contentSecurityPolicy', () => {
  it('allows scripts only from the origin or with the nonce, never inline without it', () => {
    const csp = contentSecurityPolicy({ nonce: 'abc123' })
    expect(csp).toContain("script-src 'self' 'nonce-abc123' 'strict-dynamic'")
    expect(csp).not.toMatch(/script-src[^;]*unsafe-inline/)
    expect(csp).toContain("frame-ancestors 'none'")
    expect(csp).toContain("object-src 'none'")
    expect(csp).toContain("base-uri 'none'")
    expect(csp).not.toContain('upgrade-insecure-requests')
  })
  it('lets forms end at the configured identity provider and upgrades requests on https', () => {
    const csp = contentSecurityPolicy({
      nonce: 'n',
      formActions: ['https://login.manabi.example'],
      secure: true,
    })
    expect(csp).toContain("form-action 'self' https://login.manabi.example")
    expect(csp).toContain('upgrade-insecure-requests')
  })
})

describe('cacheControlFor', () => {
  const base = { method: 'GET', pathname: '/', personal: false, status: 200, existing: null }
  it('never stores what was answered for a signed-in member', () => {
    expect(cacheControlFor({ ...base, personal: true })).toBe('private, no-store')
    expect(cacheControlFor({ ...base, personal: true, existing: 'public, max-age=60' })).toBe(
      'private, no-store',
    )
  })
  it('keeps an immutable public upload cacheable, also for a signed-in member', () => {
    const upload = {
      ...base,
      pathname: '/uploads/classes/a.webp',
      existing: 'public, max-age=31536000, immutable',
    }
    expect(cacheControlFor({ ...upload, personal: true })).toBe('public, max-age=31536000, immutable')
  })
  it('never stores private pages, server functions or writes, signed in or not', () => {
    expect(cacheControlFor({ ...base, pathname: '/mypage' })).toBe('private, no-store')
    expect(cacheControlFor({ ...base, pathname: '/profile/edit_user' })).toBe('private, no-store')
    expect(cacheControlFor({ ...base, pathname: '/_serverFn/abc' })).toBe('private, no-store')
    // A mail's unsubscribe page shows one member's setting to whoever holds its link: never kept by a proxy.
    expect(cacheControlFor({ ...base, pathname: '/unsubscribe' })).toBe('private, no-store')
    expect(cacheControlFor({ ...base, pathname: '/notification_settings' })).toBe('private, no-store')
    expect(cacheControlFor({ ...base, pathname: '/admin/reports' })).toBe('private, no-store')
    expect(cacheControlFor({ ...base, method: 'POST', pathname: '/v1/class_works/search' })).toBe('no-store')
  })
  it('lets public pages be kept but revalidated, and keeps a public handler’s own choice', () => {
    expect(cacheControlFor(base)).toBe('public, max-age=0, must-revalidate')
    expect(cacheControlFor({ ...base, pathname: '/class_search/detail/1' })).toBe(
      'public, max-age=0, must-revalidate',
    )
    expect(cacheControlFor({ ...base, pathname: '/robots.txt', existing: 'public, max-age=3600' })).toBe(
      'public, max-age=3600',
    )
    expect(cacheControlFor({ ...base, status: 404 })).toBe('no-store')
  })
  it('does not mistake a public path that merely starts like a private one', () => {
    expect(cacheControlFor({ ...base, pathname: '/followers-guide' })).toBe(
      'public, max-age=0, must-revalidate',
    )
  })
})

describe('contentSecurityPolicy with Stripe', () => {
  it('lets Stripe.js, its frames and its API in only when Stripe is the provider', () => {
    const plain = contentSecurityPolicy({ nonce: 'n' })
    expect(plain).not.toContain('stripe')
    const stripe = contentSecurityPolicy({ nonce: 'n', stripe: true })
    expect(stripe).toContain("script-src 'self' 'nonce-n' 'strict-dynamic' https://js.stripe.com")
    expect(stripe).toContain("frame-src 'self' https://js.stripe.com https://hooks.stripe.com")
    expect(stripe).toContain("connect-src 'self' https://api.stripe.com")
  })
})

describe('stabilizePage and etagMatches (visitor pages a CDN can share)', () => {
  const crypto = {
    hmac: (parts: (Uint8Array | string)[]) => {
      const hmac = createHmac('sha256', 'k')
      for (const part of parts) hmac.update(part)
      return hmac.digest('base64url')
    },
    hash: (data: string) => createHash('sha256').update(data).digest('base64url'),
  }
  /** stabilizePage on a page's text, with the answer's bytes as text too. */
  const stabilize = (
    html: string,
    nonce: string,
    using: typeof crypto = crypto,
    known?: (digest: string) => StablePage | undefined,
  ) => {
    const stable = stabilizePage(new TextEncoder().encode(html), nonce, using, known)
    return { ...stable, body: new TextDecoder().decode(stable.bytes) }
  }
  /** `crypto` with every input of `hash` kept in `hashed`. */
  const countingHashes = () => {
    const hashed: string[] = []
    const counting = {
      ...crypto,
      hash: (data: string) => {
        hashed.push(data)
        return crypto.hash(data)
      },
    }
    return { hashed, counting }
  }
  const render = (nonce: string, at: number, title = '英語') =>
    `<script nonce="${nonce}">x</script><h1>${title}</h1><script nonce="${nonce}">$R={i:"#",u:${at},s:"success"},{dehydratedAt:${at},state:{data:{now:"${new Date(at).toISOString()}"},dataUpdatedAt:${at},errorUpdatedAt:0}}</script>`

  it('gives two renders of the same content one nonce and one digest, whatever their render times', () => {
    const a = stabilize(render('RANDOMNONCE1', 1795627368675), 'RANDOMNONCE1', crypto)
    const b = stabilize(render('OTHERNONCE22', 1795627399999), 'OTHERNONCE22', crypto)
    expect(a.nonce).toBe(b.nonce)
    expect(a.digest).toBe(b.digest)
    expect(a.body).not.toContain('RANDOMNONCE1')
    expect(a.body.split(`nonce="${a.nonce}"`)).toHaveLength(3)
    expect(a.nonce).toMatch(/^[A-Za-z0-9_-]{24}$/)
    // The ETag names the bytes (render times included): shareVisitorPage answers the first render again.
    expect(a.etag).toMatch(/^"[A-Za-z0-9_-]{32}"$/)
    expect(a.etag).not.toBe(b.etag)
    expect(stabilize(render('N3', 1795627368675), 'N3', crypto).etag).toBe(a.etag)
  })

  it('answers the page already served for the same content without hashing its bytes again', () => {
    const first = stabilize(render('N1', 1795627368675), 'N1', crypto)
    const { hashed, counting } = countingHashes()
    const again = stabilize(render('N2', 1795627399999), 'N2', counting, (digest) =>
      digest === first.digest ? first : undefined,
    )
    // The very page served before, not another build of it.
    expect(again.bytes).toBe(first.bytes)
    expect(hashed).toHaveLength(0)
    // Other content is built and hashed as usual.
    const other = stabilize(render('N3', 1795627399999, 'ピアノ'), 'N3', counting, () => undefined)
    expect(other.digest).not.toBe(first.digest)
    expect(hashed).toHaveLength(1)
  })

  it('names the bytes in its ETag without hashing the page again: where the nonce stands and each render time count', () => {
    const { hashed, counting } = countingHashes()
    const page = `${render('N1', 1795627368675)}${'<p>本文</p>'.repeat(2000)}`
    const a = stabilize(page, 'N1', counting)
    expect(hashed).toHaveLength(1)
    expect(hashed[0]!.length).toBeLessThan(400)
    // Same content and digest, the nonce moved from one attribute to another: other bytes, another ETag.
    const moved = stabilize(page.replace('<script nonce="N1">x', '<script nonce="">xN1'), 'N1', crypto)
    expect(moved.digest).toBe(a.digest)
    expect(moved.body).not.toBe(a.body)
    expect(moved.etag).not.toBe(a.etag)
    // The same render times in other places: other bytes, another ETag.
    const swapped = (at1: number, at2: number, nonce = 'N1') =>
      `<i>u:${at1}</i><i>u:${at2}</i><script nonce="${nonce}"></script>`
    const first = stabilize(swapped(1795627368675, 1795627399999), 'N1', crypto)
    const second = stabilize(swapped(1795627399999, 1795627368675), 'N1', crypto)
    expect(second.digest).toBe(first.digest)
    expect(second.etag).not.toBe(first.etag)
    // A page whose text holds a literal <time>: the same digest, and only the render time's place tells the bytes
    // apart.
    const literal = stabilize('<b><time>u:1795627368675</b><script nonce="N1"></script>', 'N1', crypto)
    const placed = stabilize('<b>u:1795627368675<time></b><script nonce="N1"></script>', 'N1', crypto)
    expect(placed.digest).toBe(literal.digest)
    expect(placed.etag).not.toBe(literal.etag)
    // The same bytes under another request's nonce: the same ETag.
    expect(stabilize(swapped(1795627368675, 1795627399999, 'OTHER2'), 'OTHER2', crypto).etag).toBe(first.etag)
  })

  it('reads the page as bytes exactly as its text: Japanese next to render times and nonces, the digest of the text', () => {
    const page = `<p>英語u:1795627368675あ</p><script nonce="N+1/">$R={u:1795627368675,t:"日本語now:\\"x"}</script>${'<p>本文</p>'.repeat(50)}<i nonce="N+1/">dataUpdatedAt:1795627368675</i>`
    const stable = stabilize(page, 'N+1/')
    // The nonce replaced everywhere, nothing else changed.
    expect(stable.body).toBe(page.replaceAll('N+1/', stable.nonce))
    // The digest is the HMAC of the content as text: the page without its nonce, each render time as <time>.
    const content = page.replaceAll('N+1/', '').replace(RENDER_TIMES, '<time>')
    expect(content.match(/<time>/g)).toHaveLength(3)
    expect(stable.digest).toBe(crypto.hmac([content]))
    // A page without a nonce or a render time is answered as it is, and so is any page for an empty nonce.
    const plain = stabilize('<p>お知らせ</p>', 'N+1/')
    expect(plain.body).toBe('<p>お知らせ</p>')
    expect(plain.digest).toBe(crypto.hmac(['<p>お知らせ</p>']))
    expect(stabilize('<p nonce="">お知らせ</p>', '').body).toBe('<p nonce="">お知らせ</p>')
  })

  it('finds the render times from the colons exactly where the pattern matches, over many made-up pages', () => {
    // Render times whole and in pieces, with what may stand around them.
    const pieces = [
      'u:1795627368675',
      'now:"2026-12-05T10:00:00.000Z"',
      'dataUpdatedAt:1795627368675',
      'u',
      'nu',
      'now',
      'know',
      'dehydratedAt',
      'xdataUpdatedAt',
      'errorUpdatedAt',
      ':',
      '"',
      ',',
      '1795627368675',
      '2026-12-05T10:00:00.000Z',
      'T10:00',
      '9',
      'Z"',
      'あ',
      '_',
    ]
    // A small deterministic generator (Park–Miller): the same pages on every run.
    let seed = 42
    const random = (n: number) => {
      seed = (seed * 48_271) % 2_147_483_647
      return seed % n
    }
    let matches = 0
    for (let page = 0; page < 3000; page++) {
      const text = Array.from({ length: 1 + random(40) }, () => pieces[random(pieces.length)]).join('')
      const expected = [...text.matchAll(RENDER_TIMES)].map((m) => ({ index: m.index, time: m[0] }))
      expect(renderTimesIn(text), text).toEqual(expected)
      matches += expected.length
    }
    // The pages did hold render times, of every kind.
    expect(matches).toBeGreaterThan(300)
    expect(
      renderTimesIn('{u:1795627368675,now:"2026-12-05T10:00:00.000Z",dataUpdatedAt:1795627368675}'),
    ).toEqual([
      { index: 1, time: 'u:1795627368675' },
      { index: 17, time: 'now:"2026-12-05T10:00:00.000Z"' },
      { index: 48, time: 'dataUpdatedAt:1795627368675' },
    ])
  })

  it('gives different content another nonce, digest and ETag', () => {
    const a = stabilize(render('N1', 1795627368675), 'N1', crypto)
    const b = stabilize(render('N1', 1795627368675, 'ピアノ'), 'N1', crypto)
    expect([b.nonce, b.digest, b.etag]).not.toContain(a.nonce)
    expect(b.digest).not.toBe(a.digest)
    expect(b.etag).not.toBe(a.etag)
  })

  it('matches If-None-Match weakly, in lists and with *', () => {
    expect(etagMatches('"abc"', '"abc"')).toBe(true)
    expect(etagMatches('W/"abc"', '"abc"')).toBe(true)
    expect(etagMatches('"x", "abc"', '"abc"')).toBe(true)
    expect(etagMatches('*', '"abc"')).toBe(true)
    expect(etagMatches('"abcd"', '"abc"')).toBe(false)
    expect(etagMatches(null, '"abc"')).toBe(false)
  })
})
