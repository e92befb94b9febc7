import sharp from 'sharp'
import { describe, expect, it } from 'vitest'
import { AVATAR_MAX_PX, CLASS_IMAGE_MAX_PX, resizeImage } from './uploads.server'

async function png(width: number, height: number) {
  return new Uint8Array(
    await sharp({ create: { width, height, channels: 3, background: '#4ec2f0' } })
      .png()
      .toBuffer(),
  )
}

describe('resizeImage', () => {
  it('shrinks a large image to fit and stores it as WebP', async () => {
    const out = await resizeImage(await png(3000, 2000), CLASS_IMAGE_MAX_PX)
    const meta = await sharp(out!).metadata()
    expect(meta.format).toBe('webp')
    expect(meta.width).toBe(1600)
    expect(meta.height).toBe(1067)
  })
  it('never enlarges a small image', async () => {
    const meta = await sharp((await resizeImage(await png(40, 30), AVATAR_MAX_PX))!).metadata()
    expect([meta.width, meta.height]).toEqual([40, 30])
  })
  it('drops metadata such as EXIF', async () => {
    const withExif = await sharp(await png(100, 100))
      .withExif({ IFD0: { Copyright: 'someone', ImageDescription: 'home' } })
      .jpeg()
      .toBuffer()
    expect((await sharp(withExif).metadata()).exif).toBeDefined()
    const meta = await sharp((await resizeImage(new Uint8Array(withExif), AVATAR_MAX_PX))!).metadata()
    expect(meta.exif).toBeUndefined()
  })
  it('refuses bytes that are not an image', async () => {
    expect(await resizeImage(new TextEncoder().encode('GIF89a not really'), AVATAR_MAX_PX)).toBeUndefined()
  })
})
