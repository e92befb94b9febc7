import { describe, expect, it } from 'vitest'
import { sanitizeReturnTo } from './return-to.server'

describe('sanitizeReturnTo', () => {
  it.each([
    ['/', '/'],
    ['/mypage', '/mypage'],
    ['/class_search?category=3&page=2', '/class_search?category=3&page=2'],
    ['/class_search/detail/12#schedules', '/class_search/detail/12#schedules'],
    ['/class_search?q=%E9%99%B6%E8%8A%B8', '/class_search?q=%E9%99%B6%E8%8A%B8'],
    ['/magazine/../mypage', '/mypage'],
    // An encoded newline stays encoded inside the path: harmless.
    ['/%0A', '/%0A'],
  ])('keeps the same-origin path %s', (input, expected) => {
    expect(sanitizeReturnTo(input)).toBe(expected)
  })

  it.each([
    null,
    undefined,
    '',
    'mypage',
    '//evil.example',
    '//evil.example/path',
    '/\\evil.example',
    '\\\\evil.example',
    '/\\/evil.example',
    'https://evil.example/',
    'http://localhost:3000/mypage',
    'javascript:alert(1)',
    'data:text/html,hi',
    '/\t/evil.example',
    '/\n/evil.example',
    '/auth/logout',
    '/auth/login?returnTo=/x',
    '/idp/authorize',
    `/${'a'.repeat(3000)}`,
  ])('rejects %j', (input) => {
    expect(sanitizeReturnTo(input as string)).toBe('/')
  })

  it('uses the given fallback', () => {
    expect(sanitizeReturnTo('//evil.example', '/class_search')).toBe('/class_search')
  })

  it('does not treat /authors or /idpx as auth routes', () => {
    expect(sanitizeReturnTo('/authors')).toBe('/authors')
    expect(sanitizeReturnTo('/idpx')).toBe('/idpx')
  })
})
