import { describe, expect, it } from 'vitest'
import { classShareImageUrl } from './share-image'

describe('classShareImageUrl', () => {
  it('is a new address for a new picture, and the same for the same one', () => {
    const a = classShareImageUrl(7, '/uploads/classes/aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa.webp')
    const b = classShareImageUrl(7, '/uploads/classes/bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb.webp')
    expect(a).toMatch(/^\/og\/class\/7\.png\?v=[0-9a-f]{8}$/)
    expect(b).not.toBe(a)
    expect(classShareImageUrl(7, '/uploads/classes/aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa.webp')).toBe(a)
    expect(classShareImageUrl(7, null)).not.toBe(a)
  })
})
