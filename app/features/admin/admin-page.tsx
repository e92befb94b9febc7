import type { ReactNode } from 'react'
import { SubPage } from '~/components/ui/sub-page'

/** The frame of every /admin page below the top: a way back to 運営管理, the title and what the page is for. */
export function AdminPage(props: { title: string; lead?: string; wide?: boolean; children: ReactNode }) {
  return <SubPage back={{ to: '/admin', label: '運営管理' }} {...props} />
}

/**
 * The pager under an operator list, which is newest first: a link to the newer page and one to the older.
 * The caller renders each link with its route's typed search; the first page is `undefined` so that its
 * address carries no `?page=`. Nothing shows on a first page that is also the last.
 */
export function AdminPager(props: {
  page: number
  hasNext: boolean
  newer: string
  older: string
  renderLink: (page: number | undefined, props: { className: string; children: string }) => ReactNode
}) {
  const { page, hasNext, renderLink } = props
  if (page <= 1 && !hasNext) return null
  return (
    <nav aria-label="ページ送り" className="mt-6 flex justify-between">
      {page > 1 ? (
        renderLink(page > 2 ? page - 1 : undefined, { className: 'btn-outline', children: props.newer })
      ) : (
        <span />
      )}
      {hasNext ? renderLink(page + 1, { className: 'btn-outline', children: props.older }) : null}
    </nav>
  )
}
