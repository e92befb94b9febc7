import { Link } from '@tanstack/react-router'
import type { ReactNode } from 'react'

/**
 * The frame of a page one level below another (a profile sub-page, an admin page): a way back to the parent, the
 * title, and a line saying what the page is for.
 */
export function SubPage(props: {
  back: { to: '/profile' | '/admin'; label: string }
  title: string
  lead?: string
  wide?: boolean
  children: ReactNode
}) {
  return (
    <div className={`mx-auto ${props.wide ? 'max-w-5xl' : 'max-w-3xl'} px-4 py-10`}>
      <p className="text-sm">
        <Link to={props.back.to} className="underline">
          {props.back.label}
        </Link>
      </p>
      <h1 className="mt-2 text-2xl font-black">{props.title}</h1>
      {props.lead ? <p className="mt-2 text-sm text-slate-700">{props.lead}</p> : null}
      {props.children}
    </div>
  )
}
