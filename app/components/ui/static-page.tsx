import type { ReactNode } from 'react'

/** Frame of the legal and company pages: a heading, an optional lead and readable prose. */
export function StaticPage({
  title,
  lead,
  children,
}: {
  title: string
  lead?: ReactNode
  children: ReactNode
}) {
  return (
    <article className="mx-auto max-w-3xl px-4 py-10">
      <h1 className="text-2xl font-black">{title}</h1>
      {lead ? <p className="mt-4 text-slate-700">{lead}</p> : null}
      <div className="prose-ja mt-6 text-[15px]">{children}</div>
    </article>
  )
}

/** A two-column definition table (company profile, commercial transactions notation). */
export function FactTable({ rows }: { rows: [string, ReactNode][] }) {
  return (
    <dl className="divide-y divide-slate-200 border-y border-slate-200">
      {rows.map(([term, value]) => (
        <div key={term} className="grid gap-1 py-4 sm:grid-cols-[12rem_1fr] sm:gap-4">
          <dt className="font-bold">{term}</dt>
          <dd className="text-slate-800">{value}</dd>
        </div>
      ))}
    </dl>
  )
}
