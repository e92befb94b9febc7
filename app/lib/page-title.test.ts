import { describe, expect, it } from 'vitest'
import { canonicalPath, formatTitle, routeBodyClass, titlePrefixFor } from './page-title'

describe('titlePrefixFor', () => {
  it('marks local and swagger hosts', () => {
    expect(titlePrefixFor('localhost:3000', 'production')).toBe('[LOCAL] ')
    expect(titlePrefixFor('127.0.0.1:3100', 'development')).toBe('[LOCAL] ')
    expect(titlePrefixFor('swagger.manabi.example', 'production')).toBe('[LOCAL] ')
  })
  it('marks staging and other non-production environments', () => {
    expect(titlePrefixFor('stg.manabi.example', 'production')).toBe('[STG] ')
    expect(titlePrefixFor('manabi.example', 'staging')).toBe('[STG] ')
    expect(titlePrefixFor('dev.manabi.example', 'development')).toBe('[DEV] ')
  })
  it('adds nothing in production', () => {
    expect(titlePrefixFor('manabi.example', 'production')).toBe('')
  })
})

describe('formatTitle', () => {
  it('applies the site and magazine templates', () => {
    expect(formatTitle('会社概要')).toBe('会社概要 | まなびのたね')
    expect(formatTitle('記事', { magazine: true })).toBe('記事 | まなびのたねマガジン')
    expect(formatTitle('会社概要', { prefix: '[STG] ' })).toBe('[STG] 会社概要 | まなびのたね')
  })
  it("keeps a title's dollar signs as they are (not read as replacement patterns)", () => {
    expect(formatTitle("お得$'英語")).toBe("お得$'英語 | まなびのたね")
    expect(formatTitle('Mr.$&', { magazine: true })).toBe('Mr.$& | まなびのたねマガジン')
    expect(formatTitle('$$5 $`')).toBe('$$5 $` | まなびのたね')
  })
  it('uses the site name and tagline for the top page', () => {
    expect(formatTitle(undefined)).toBe('まなびのたね | 子どものための オンライン習いごと')
  })
})

describe('routeBodyClass', () => {
  it('names the route without layouts and params markers', () => {
    expect(routeBodyClass('/_default/')).toBe('page-index')
    expect(routeBodyClass('__root__')).toBe('page-index')
    expect(routeBodyClass('/_default/class_search/detail/$id')).toBe('page-class_search-detail-id')
    expect(routeBodyClass('/_simple/register/input')).toBe('page-register-input')
  })
})

describe('canonicalPath', () => {
  it('drops the trailing slash of an index route, keeps the root', () => {
    expect(canonicalPath('/class_search/')).toBe('/class_search')
    expect(canonicalPath('/magazine/')).toBe('/magazine')
    expect(canonicalPath('/class_search/detail/1')).toBe('/class_search/detail/1')
    expect(canonicalPath('/')).toBe('/')
    expect(canonicalPath(undefined)).toBe('/')
  })
})
