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

describe('resizeImage with a crop', () => {
  it('keeps only the chosen part of the upright picture', async () => {
    // Left half red, right half blue.
    const halves = await sharp({ create: { width: 1000, height: 500, channels: 3, background: '#ff0000' } })
      .composite([
        {
          input: await sharp({ create: { width: 500, height: 500, channels: 3, background: '#0000ff' } })
            .png()
            .toBuffer(),
          left: 500,
          top: 0,
        },
      ])
      .png()
      .toBuffer()
    const out = await resizeImage(new Uint8Array(halves), CLASS_IMAGE_MAX_PX, {
      x: 50,
      y: 10,
      width: 50,
      height: 80,
    })
    const { data, info } = await sharp(out!).raw().toBuffer({ resolveWithObject: true })
    expect([info.width, info.height]).toEqual([500, 400])
    // Every pixel is blue (WebP is lossy: close enough).
    for (let i = 0; i < data.length; i += info.channels) {
      expect(data[i]!).toBeLessThan(40)
      expect(data[i + 2]!).toBeGreaterThan(200)
    }
  })

  it('clamps a crop that rounds past the edge', async () => {
    const out = await resizeImage(await png(801, 499), CLASS_IMAGE_MAX_PX, {
      x: 0.3,
      y: -0.4,
      width: 100.2,
      height: 100.4,
    })
    const meta = await sharp(out!).metadata()
    expect(meta.width).toBeLessThanOrEqual(801)
    expect(meta.height).toBeLessThanOrEqual(499)
  })
})
