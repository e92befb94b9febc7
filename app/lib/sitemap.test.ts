import { describe, expect, it } from 'vitest'
import { robotsTxt, sitemapPageUrls, sitemapRootXml, sitemapXml } from './sitemap'

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

describe('sitemapRootXml', () => {
  const origin = 'https://manabi.example'
  const at = '2026-11-21T00:00:00.000Z'
  const page = (n: number, pages: number) => ({
    class_works: [{ id: n * 10, updated_at: at }],
    teachers: [{ id: n * 10 + 1, updated_at: at }],
    magazine_articles: [{ id: n * 10 + 2, updated_at: at }],
    page: n,
    pages,
  })

  it('is the one sitemap while a single page holds everything', () => {
    const xml = sitemapRootXml(origin, page(1, 1))
    expect(xml).toContain('<urlset')
    expect(xml).toContain(`<loc>${origin}/class_search</loc>`)
    expect(xml).toContain(`<loc>${origin}/class_search/detail/10</loc><lastmod>${at}</lastmod>`)
    expect(xml).toContain(`<loc>${origin}/teacher/detail/11</loc>`)
    expect(xml).toContain(`<loc>${origin}/magazine/detail/12</loc>`)
  })

  it('past one page, is an index of every page', () => {
    const xml = sitemapRootXml(origin, page(1, 3))
    expect(xml).toContain('<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">')
    expect([...xml.matchAll(/<sitemap><loc>([^<]+)<\/loc><\/sitemap>/g)].map((m) => m[1])).toEqual([
      `${origin}/sitemaps/1.xml`,
      `${origin}/sitemaps/2.xml`,
      `${origin}/sitemaps/3.xml`,
    ])
    expect(xml).not.toContain('<urlset')
  })

  it('a later page holds its entries only, not the fixed pages again', () => {
    const locs = sitemapPageUrls(origin, page(2, 3)).map((u) => u.loc)
    expect(locs).toEqual([
      `${origin}/class_search/detail/20`,
      `${origin}/teacher/detail/21`,
      `${origin}/magazine/detail/22`,
    ])
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
