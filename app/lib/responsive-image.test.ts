import { describe, expect, it } from 'vitest'
import { fixedSizeSrcSet, parseVariant, srcSetOf } from './responsive-image'

const hex = 'a'.repeat(32)

describe('srcSetOf', () => {
  it('lists the widths of an uploaded class image and an avatar, the original last', () => {
    expect(srcSetOf(`/uploads/classes/${hex}.webp`)).toBe(
      `/uploads/classes/${hex}-w320.webp 320w, /uploads/classes/${hex}-w640.webp 640w, /uploads/classes/${hex}-w960.webp 960w, /uploads/classes/${hex}.webp 1600w`,
    )
    expect(srcSetOf(`/uploads/avatars/${hex}.webp`)).toBe(
      `/uploads/avatars/${hex}-w96.webp 96w, /uploads/avatars/${hex}-w192.webp 192w, /uploads/avatars/${hex}.webp 512w`,
    )
  })
  it.each([
    null,
    undefined,
    '/images/classes/01-a.svg',
    `/uploads/classes/${hex}.png`,
    `/uploads/classes/${hex}-w640.webp`,
    `https://example.com/uploads/classes/${hex}.webp`,
  ])('none for %s', (url) => {
    expect(srcSetOf(url)).toBeUndefined()
  })
  it('fixed-size avatars say their CSS width', () => {
    expect(fixedSizeSrcSet(`/uploads/avatars/${hex}.webp`, 72)).toMatchObject({ sizes: '72px' })
    expect(fixedSizeSrcSet('/images/avatars/default.svg', 72)).toEqual({})
  })
})

describe('parseVariant', () => {
  it('names the original and the width of an allowed variant', () => {
    expect(parseVariant(`classes/${hex}-w640.webp`)).toEqual({ original: `classes/${hex}.webp`, width: 640 })
    expect(parseVariant(`avatars/${hex}-w96.webp`)).toEqual({ original: `avatars/${hex}.webp`, width: 96 })
  })
  it.each([
    `classes/${hex}-w641.webp`, // not a served width: no one can make the server store any size they like
    `avatars/${hex}-w640.webp`,
    `classes/${hex}-w0640.webp`, // a second name for a width, which the release (variantPathsOf) would not delete
    `avatars/${hex}-w096.webp`,
    `classes/${hex}.webp`,
    `classes/${hex}-w640.png`,
    `../classes/${hex}-w640.webp`,
  ])('refuses %s', (path) => {
    expect(parseVariant(path)).toBeUndefined()
  })
})
