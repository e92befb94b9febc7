import { describe, expect, it } from 'vitest'
import { renderNoticeMarkdown } from './markdown'

describe('notice Markdown', () => {
  it('renders the small set: paragraphs, breaks, emphasis, lists, links', () => {
    expect(renderNoticeMarkdown('**重要**なお知らせです。\n2行目')).toBe(
      '<p><strong>重要</strong>なお知らせです。<br />2行目</p>',
    )
    expect(renderNoticeMarkdown('- 一つ目\n- 二つ目')).toBe('<ul>\n<li>一つ目</li>\n<li>二つ目</li>\n</ul>')
    expect(renderNoticeMarkdown('[ヘルプ](https://manabi.example/help)')).toBe(
      '<p><a href="https://manabi.example/help" target="_blank" rel="noopener noreferrer nofollow">ヘルプ</a></p>',
    )
    expect(renderNoticeMarkdown('# 見出し')).toBe('<h3>見出し</h3>')
  })

  it('drops raw HTML, scripts, images and unsafe links', () => {
    const html = renderNoticeMarkdown(
      '<script>alert(1)</script><img src=x onerror=alert(1)>\n\n![画像](https://x.example/a.png)\n\n[危険](javascript:alert(1)) <a href="https://x.example" onclick="alert(1)">x</a> <iframe src="https://x.example"></iframe>',
    )
    expect(html).not.toMatch(/<script|<img|onerror|onclick|javascript:|<iframe/i)
    expect(html).toContain('危険')
  })
})
