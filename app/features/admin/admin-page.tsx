import type { ReactNode } from 'react'
import { SubPage } from '~/components/ui/sub-page'

/** The frame of every /admin page below the top: a way back to 運営管理, the title and what the page is for. */
export function AdminPage(props: { title: string; lead?: string; wide?: boolean; children: ReactNode }) {
  return <SubPage back={{ to: '/admin', label: '運営管理' }} {...props} />
}
