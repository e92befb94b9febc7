import { describe, expect, it } from 'vitest'
import { redirectTarget } from './redirects'

describe('redirectTarget', () => {
  it('drops the /private/ segment and keeps the query', () => {
    expect(redirectTarget('/private/mypage')).toBe('/mypage')
    expect(redirectTarget('/private/class_management/edit/3', '?tab=2')).toBe(
      '/class_management/edit/3?tab=2',
    )
    expect(redirectTarget('/profile/private/edit_user')).toBe('/profile/edit_user')
    expect(redirectTarget('/private')).toBe('/')
  })
  it('always stays on this site: no protocol-relative target from doubled slashes', () => {
    expect(redirectTarget('/private//evil.example/login')).toBe('/evil.example/login')
    expect(redirectTarget('/private/\\evil.example')).toBe('/evil.example')
    expect(redirectTarget('/private///evil.example', '?a=1')).toBe('/evil.example?a=1')
    expect(redirectTarget('//private//evil.example')).toBe('/evil.example')
  })
  it('sends every apple touch icon variant to the one icon', () => {
    expect(redirectTarget('/apple-touch-icon-precomposed.png')).toBe('/apple-touch-icon.png')
    expect(redirectTarget('/apple-touch-icon-120x120.png')).toBe('/apple-touch-icon.png')
    expect(redirectTarget('/apple-touch-icon-152x152-precomposed.png')).toBe('/apple-touch-icon.png')
    expect(redirectTarget('/apple-touch-icon.png')).toBeUndefined()
  })
  it('leaves other paths alone', () => {
    expect(redirectTarget('/')).toBeUndefined()
    expect(redirectTarget('/privacy_policy')).toBeUndefined()
    expect(redirectTarget('/privately/x')).toBeUndefined()
  })
})
