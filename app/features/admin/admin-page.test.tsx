import { renderToStaticMarkup } from 'react-dom/server'
import { describe, expect, it } from 'vitest'
import { AdminPager } from './admin-page'

/** Renders the pager with plain anchors that show which page each link asks for. */
function pager(page: number, hasNext: boolean) {
  const asked: (number | undefined)[] = []
  const html = renderToStaticMarkup(
    <AdminPager
      page={page}
      hasNext={hasNext}
      newer="新しい記録へ"
      older="古い記録へ"
      renderLink={(p, link) => {
        asked.push(p)
        return <a href={p === undefined ? '/list' : `/list?page=${p}`} {...link} />
      }}
    />,
  )
  return { html, asked }
}

describe('AdminPager', () => {
  it('shows nothing on a first page that is also the last', () => {
    expect(pager(1, false)).toEqual({ html: '', asked: [] })
  })

  it('offers only the older page from the first page', () => {
    const { html, asked } = pager(1, true)
    expect(asked).toEqual([2])
    expect(html).toContain('aria-label="ページ送り"')
    expect(html).toContain('<a href="/list?page=2" class="btn-outline">古い記録へ</a>')
    expect(html).not.toContain('新しい記録へ')
  })

  it('leads from the second page back to the first without a page number', () => {
    const { html, asked } = pager(2, false)
    expect(asked).toEqual([undefined])
    expect(html).toContain('<a href="/list" class="btn-outline">新しい記録へ</a>')
    expect(html).not.toContain('古い記録へ')
  })

  it('offers both neighbours in the middle', () => {
    expect(pager(5, true).asked).toEqual([4, 6])
  })
})
