import { describe, expect, it } from 'vitest'
import { pageHead } from './seo'

const match = {
  status: 'success',
  context: { site: { siteOrigin: 'https://manabi.example', titlePrefix: '' } },
}

describe('pageHead', () => {
  it('preloads the page’s largest picture with high priority, at the widths the page offers', () => {
    const head = pageHead(match, {
      title: 'クラス',
      preloadImage: { href: '/uploads/classes/a.webp', srcSet: '/a-w320.webp 320w', sizes: '100vw' },
    })
    expect(head.links).toEqual([
      {
        rel: 'preload',
        as: 'image',
        href: '/uploads/classes/a.webp',
        imageSrcSet: '/a-w320.webp 320w',
        imageSizes: '100vw',
        fetchPriority: 'high',
      },
    ])
  })
  it('an SVG drawing is preloaded as it is; no picture, no link; no links on an error page', () => {
    expect(pageHead(match, { preloadImage: { href: '/images/classes/default.svg' } }).links).toEqual([
      { rel: 'preload', as: 'image', href: '/images/classes/default.svg', fetchPriority: 'high' },
    ])
    expect(pageHead(match, { title: 'x' }).links).toBeUndefined()
    expect(pageHead({ ...match, status: 'error' }, { preloadImage: { href: '/x.svg' } })).toEqual({
      meta: [],
    })
  })
})
