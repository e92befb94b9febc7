import { describe, expect, it } from 'vitest'
import { breakpointFor, isMobileWidth, isPhoneWidth, isTabletUserAgent, minWidthQuery } from './breakpoints'

describe('breakpoints', () => {
  it('maps widths to the spec breakpoints', () => {
    expect(breakpointFor(0)).toBe('xs')
    expect(breakpointFor(390)).toBe('xs')
    expect(breakpointFor(599)).toBe('xs')
    expect(breakpointFor(600)).toBe('sm')
    expect(breakpointFor(959)).toBe('sm')
    expect(breakpointFor(960)).toBe('md')
    expect(breakpointFor(1279)).toBe('md')
    expect(breakpointFor(1280)).toBe('lg')
    expect(breakpointFor(1920)).toBe('xl')
    expect(breakpointFor(2559)).toBe('xl')
    expect(breakpointFor(2560)).toBe('xxl')
  })
  it('treats everything below lg as mobile', () => {
    expect(isMobileWidth(390)).toBe(true)
    expect(isMobileWidth(1279)).toBe(true)
    expect(isMobileWidth(1280)).toBe(false)
    expect(isPhoneWidth(599)).toBe(true)
    expect(isPhoneWidth(600)).toBe(false)
  })
  it('builds min-width queries', () => {
    expect(minWidthQuery('lg')).toBe('(min-width: 1280px)')
  })
  it('recognises tablets', () => {
    expect(isTabletUserAgent('Mozilla/5.0 (iPad; CPU OS 17_0 like Mac OS X)')).toBe(true)
    expect(isTabletUserAgent('Mozilla/5.0 (Linux; Android 14; SM-X710) AppleWebKit Safari')).toBe(true)
    expect(isTabletUserAgent('Mozilla/5.0 (Linux; Android 14; Pixel 8) Mobile Safari')).toBe(false)
    expect(isTabletUserAgent('Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) Mobile')).toBe(false)
    expect(isTabletUserAgent('Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7)', 5)).toBe(true)
    expect(isTabletUserAgent('Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7)', 0)).toBe(false)
  })
})
