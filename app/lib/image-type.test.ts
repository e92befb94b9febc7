import { describe, expect, it } from 'vitest'
import { contentTypeOf, sniffImageType } from './image-type'

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
