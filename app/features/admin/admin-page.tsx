import { Link } from '@tanstack/react-router'
import type { ReactNode } from 'react'

/** The frame of every /admin page below the top: a way back to 運営管理, the title and what the page is for. */
export function AdminPage(props: { title: string; lead?: string; wide?: boolean; children: ReactNode }) {
  return (
    <div className={`mx-auto ${props.wide ? 'max-w-5xl' : 'max-w-3xl'} px-4 py-10`}>
      <p className="text-sm">
        <Link to="/admin" className="underline">
          運営管理
        </Link>
      </p>
      <h1 className="mt-2 text-2xl font-black">{props.title}</h1>
      {props.lead ? <p className="mt-2 text-sm text-slate-700">{props.lead}</p> : null}
      {props.children}
    </div>
  )
}
