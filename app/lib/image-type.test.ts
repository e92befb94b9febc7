import { describe, expect, it } from 'vitest'
import { contentTypeOf, parseImageCrop, sniffImageType } from './image-type'

describe('sniffImageType', () => {
  it('recognises png, jpeg and webp by their bytes', () => {
    expect(sniffImageType(new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0]))).toBe('png')
    expect(sniffImageType(new Uint8Array([0xff, 0xd8, 0xff, 0xe0]))).toBe('jpg')
    const webp = new TextEncoder().encode('RIFF\0\0\0\0WEBPVP8 ')
    expect(sniffImageType(webp)).toBe('webp')
  })

  it('refuses anything else (gif, svg, html)', () => {
    expect(sniffImageType(new TextEncoder().encode('GIF89a'))).toBeUndefined()
    expect(sniffImageType(new TextEncoder().encode('<svg xmlns='))).toBeUndefined()
    expect(sniffImageType(new Uint8Array([]))).toBeUndefined()
  })

  it('maps stored names to content types', () => {
    expect(contentTypeOf('abc.png')).toBe('image/png')
    expect(contentTypeOf('abc.jpg')).toBe('image/jpeg')
    expect(contentTypeOf('abc.webp')).toBe('image/webp')
    expect(contentTypeOf('abc.svg')).toBeUndefined()
  })
})

describe('parseImageCrop', () => {
  it.each([
    [null, { ok: true }],
    ['', { ok: true }],
    [
      '{"x":0,"y":10,"width":100,"height":62.5}',
      { ok: true, crop: { x: 0, y: 10, width: 100, height: 62.5 } },
    ],
    // Rounding at the edges is tolerated.
    [
      '{"x":-0.2,"y":0,"width":100.3,"height":100}',
      { ok: true, crop: { x: -0.2, y: 0, width: 100.3, height: 100 } },
    ],
    ['{"x":60,"y":0,"width":50,"height":50}', { ok: false }],
    ['{"x":0,"y":0,"width":0,"height":50}', { ok: false }],
    ['{"x":0,"y":0,"width":"50","height":50}', { ok: false }],
    ['{"x":0,"y":0,"width":50,"height":50,"extra":1}', { ok: false }],
    ['{"x":0,"y":0,"width":50}', { ok: false }],
    ['not json', { ok: false }],
    [`{"x":0,"y":0,"width":50,"height":50${' '.repeat(300)}}`, { ok: false }],
    [42, { ok: false }],
  ])('%s → %o', (raw, expected) => {
    expect(parseImageCrop(raw)).toEqual(expected)
  })
})
