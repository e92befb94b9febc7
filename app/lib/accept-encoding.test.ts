import { describe, expect, it } from 'vitest'
import { preferredEncoding } from './accept-encoding.js'

describe('preferredEncoding (the coding kept pages and static files are answered in)', () => {
  it('prefers brotli, then gzip, as browsers send them', () => {
    expect(preferredEncoding('gzip, deflate, br, zstd')).toBe('br')
    expect(preferredEncoding('gzip, deflate')).toBe('gzip')
    expect(preferredEncoding('GZIP;q=0.5, BR;q=1.0')).toBe('br')
  })

  it('answers identity when nothing usable is accepted, or a coding is refused with q=0', () => {
    expect(preferredEncoding(null)).toBeUndefined()
    expect(preferredEncoding('')).toBeUndefined()
    expect(preferredEncoding('identity')).toBeUndefined()
    expect(preferredEncoding('deflate, *;q=0')).toBeUndefined()
    expect(preferredEncoding('br;q=0, gzip')).toBe('gzip')
    expect(preferredEncoding('br;q=0, gzip;q=0.000')).toBeUndefined()
    // Not a substring match: "brotli" or "xgzip" are not codings we send.
    expect(preferredEncoding('brotli, xgzip')).toBeUndefined()
  })

  it("reads Node's repeated header (an array) as one list", () => {
    expect(preferredEncoding(['gzip', 'br;q=0.5'])).toBe('br')
    expect(preferredEncoding(['br;q=0', 'gzip'])).toBe('gzip')
    expect(preferredEncoding(undefined)).toBeUndefined()
  })
})
