import type { ReactNode } from 'react'
import { pageItems } from '~/lib/pagination'
import { Icon } from './icon'

export type PageLinkProps = {
  className: string
  'aria-label': string
  'aria-current'?: 'page'
  children: ReactNode
}

/**
 * A pager: previous, numbered pages with gaps, next. Each page is a real link (the caller renders it with the
 * route's typed search), so pages can be opened in a new tab and crawled; the current page has aria-current.
 */
export function Pagination({
  page,
  totalPages,
  renderLink,
  label = 'ページ送り',
}: {
  page: number
  totalPages: number
  renderLink: (page: number, props: PageLinkProps) => ReactNode
  label?: string
}) {
  if (totalPages <= 1) return null
  const item =
    'inline-flex h-10 min-w-10 items-center justify-center rounded-full px-3 text-sm font-bold hover:bg-light-grey'
  return (
    <nav aria-label={label} className="mt-10" data-testid="pagination">
      <ul className="flex flex-wrap items-center justify-center gap-1">
        {page > 1 ? (
          <li>
            {renderLink(page - 1, {
              className: item,
              'aria-label': '前のページ',
              children: <Icon name="chevron-left" className="h-5 w-5" />,
            })}
          </li>
        ) : null}
        {pageItems(page, totalPages).map((p, i) =>
          p === 'gap' ? (
            <li key={`gap-${i}`} aria-hidden="true" className="px-1 text-slate-500">
              …
            </li>
          ) : (
            <li key={p}>
              {renderLink(p, {
                className: `${item} ${p === page ? 'bg-purple-dark text-white hover:bg-purple-dark' : 'text-slate-800'}`,
                'aria-label': `${p}ページ目`,
                ...(p === page ? { 'aria-current': 'page' as const } : {}),
                children: p,
              })}
            </li>
          ),
        )}
        {page < totalPages ? (
          <li>
            {renderLink(page + 1, {
              className: item,
              'aria-label': '次のページ',
              children: <Icon name="chevron-right" className="h-5 w-5" />,
            })}
          </li>
        ) : null}
      </ul>
    </nav>
  )
}
