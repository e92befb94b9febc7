import { describe, expect, it } from 'vitest'
import { noticePlainText, renderNoticeMarkdown } from './markdown'

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

describe('notice plain text (mail excerpts)', () => {
  it('keeps the words and drops the marks: emphasis, headings, lists, quotes, links', () => {
    expect(
      noticePlainText(
        '### 年末年始のお知らせ\n**12月29日**から*1月3日*まで、お問い合わせの返信が遅れます。\n\n- 予約：通常どおり\n- 返金：1月4日以降\n\n> 詳しくは[ヘルプ](https://manabi.example/help)へ',
      ),
    ).toBe(
      [
        '年末年始のお知らせ',
        '12月29日から1月3日まで、お問い合わせの返信が遅れます。',
        '予約：通常どおり',
        '返金：1月4日以降',
        '詳しくはヘルプへ',
      ].join('\n'),
    )
  })

  it('drops raw HTML and images, and keeps line breaks as lines', () => {
    expect(
      noticePlainText('<script>alert(1)</script>\n\n本文<b>です</b>![画像](https://x.example/a.png)\n2行目'),
    ).toBe('本文です\n2行目')
  })
})
