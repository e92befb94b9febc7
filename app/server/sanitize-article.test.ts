import { describe, expect, it } from 'vitest'
import { sanitizeArticleHtml } from './sanitize-article.server'

describe('sanitizeArticleHtml', () => {
  it('keeps article markup', () => {
    const html =
      '<h2>見出し</h2><p>本文<strong>強調</strong></p><ul><li>項目</li></ul><blockquote>引用</blockquote>'
    expect(sanitizeArticleHtml(html)).toBe(html)
  })
  it('removes scripts, handlers, styles and dangerous URLs', () => {
    const out = sanitizeArticleHtml(
      '<p onclick="x()" style="color:red">a<script>alert(1)</script><img src=x onerror=alert(1)><a href="javascript:alert(1)">b</a><iframe src="https://e.example"></iframe></p>',
    )
    expect(out).toBe('<p>a<a>b</a></p>')
  })
  it('opens outside links in a new tab without an opener', () => {
    expect(sanitizeArticleHtml('<a href="https://example.com/x">x</a>')).toBe(
      '<a href="https://example.com/x" target="_blank" rel="noopener noreferrer nofollow">x</a>',
    )
    expect(sanitizeArticleHtml('<a href="/class_search">x</a>')).toBe('<a href="/class_search">x</a>')
  })
})

describe('sanitizeArticleHtml and given link targets', () => {
  it('replaces a target or rel from the input', () => {
    expect(sanitizeArticleHtml('<a href="/x" target="_blank" rel="opener">x</a>')).toBe('<a href="/x">x</a>')
  })
})
