import { describe, expect, it } from 'vitest'
import { robotsTxt, sitemapXml } from './sitemap'

describe('sitemapXml', () => {
  it('writes a urlset with escaped locations and optional lastmod', () => {
    const xml = sitemapXml([
      { loc: 'https://manabi.example/' },
      { loc: 'https://manabi.example/a?x=1&y=<2>', lastmod: '2026-11-21T00:00:00.000Z' },
    ])
    expect(xml.startsWith('<?xml version="1.0" encoding="UTF-8"?>\n<urlset')).toBe(true)
    expect(xml).toContain('<url><loc>https://manabi.example/</loc></url>')
    expect(xml).toContain(
      '<url><loc>https://manabi.example/a?x=1&amp;y=&lt;2&gt;</loc><lastmod>2026-11-21T00:00:00.000Z</lastmod></url>',
    )
    expect(xml.trim().endsWith('</urlset>')).toBe(true)
  })
  it('stops at 50,000 URLs', () => {
    const urls = Array.from({ length: 50_010 }, (_, i) => ({ loc: `https://m.example/${i}` }))
    expect(sitemapXml(urls).match(/<url>/g)).toHaveLength(50_000)
  })
})

describe('robotsTxt', () => {
  it('keeps private areas out and names the sitemap', () => {
    const txt = robotsTxt('https://manabi.example')
    expect(txt).toContain('Disallow: /auth/')
    expect(txt).toContain('Disallow: /test/')
    expect(txt).toContain('Sitemap: https://manabi.example/sitemap.xml')
  })
})
