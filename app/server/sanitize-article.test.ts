import { describe, expect, it } from 'vitest'
import { renderNoticeMarkdown } from '../api/services/markdown'
import { sanitizeArticleHtml } from './sanitize-article.server'

describe('sanitizeArticleHtml', () => {
  it('keeps article markup', () => {
    const html =
      '<h2>見出し</h2><p>本文<strong>強調</strong></p><ul><li>項目</li></ul><blockquote>引用</blockquote>'
    expect(sanitizeArticleHtml(html)).toBe(html)
  })
  it("keeps everything a notice's markdown stores (a notice is shown through this sanitizer)", () => {
    const html = renderNoticeMarkdown(
      'メニューの `設定 > 通知` を開き、**保存**してください。\n\n- 一つ目\n- [規約](/terms)',
    )
    const shown = sanitizeArticleHtml(html)
    for (const part of [
      '<code>設定 &gt; 通知</code>',
      '<strong>保存</strong>',
      '<li>一つ目</li>',
      '<a href="/terms">規約</a>',
    ])
      expect(shown).toContain(part)
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
