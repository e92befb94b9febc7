import { describe, expect, it } from 'vitest'
import { AVATAR_PATH, avatarFileProblem, MAX_AVATAR_BYTES } from './avatar-rules'

describe('avatar rules', () => {
  it('accepts PNG, JPEG and WebP up to 2 MB', () => {
    for (const type of ['image/png', 'image/jpeg', 'image/webp'])
      expect(avatarFileProblem({ type, size: MAX_AVATAR_BYTES })).toBeUndefined()
  })
  it('refuses other types, empty and large files', () => {
    expect(avatarFileProblem({ type: 'image/svg+xml', size: 10 })).toMatch(/PNG/)
    expect(avatarFileProblem({ type: 'image/gif', size: 10 })).toMatch(/PNG/)
    expect(avatarFileProblem({ type: 'image/png', size: MAX_AVATAR_BYTES + 1 })).toBe(
      '画像は2MB以下にしてください',
    )
    expect(avatarFileProblem({ type: 'image/png', size: 0 })).toBe('画像ファイルを選択してください')
  })
  it('serves only names the server chose', () => {
    expect(AVATAR_PATH.test(`avatars/${'a1'.repeat(16)}.png`)).toBe(true)
    for (const bad of [
      'avatars/../x.png',
      `avatars/${'a'.repeat(32)}.svg`,
      `classes/${'a'.repeat(32)}.png`,
      'avatars/x.png',
    ])
      expect(AVATAR_PATH.test(bad)).toBe(false)
  })
})
