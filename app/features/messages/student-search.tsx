import { useQuery } from '@tanstack/react-query'
import { Link } from '@tanstack/react-router'
import { useId, useState } from 'react'
import { addressName } from '~/lib/format'
import { DESTINATION_SEARCH_LIMIT } from '~/lib/page-sizes'
import { searchStudents } from './messages.functions'

/**
 * A teacher finds one of their students by nickname, among all of them (the new-conversation list holds the most
 * recent only), and opens the conversation with them.
 */
export function StudentSearch() {
  const uid = useId()
  const [text, setText] = useState('')
  const [asked, setAsked] = useState('')
  const found = useQuery({
    queryKey: ['rooms', 'student-search', asked],
    queryFn: () => searchStudents({ data: { q: asked } }),
    enabled: asked !== '',
  })
  return (
    <div className="mt-4 rounded-2xl border border-slate-200 bg-white p-3">
      <search aria-label="受講者を探す">
        <form
          onSubmit={(e) => {
            e.preventDefault()
            setAsked(text.trim().slice(0, 50))
          }}
        >
          <label htmlFor={`${uid}-q`} className="text-sm font-bold">
            受講者をニックネームで探す
          </label>
          <div className="mt-2 flex gap-2">
            <input
              id={`${uid}-q`}
              type="search"
              maxLength={50}
              className="min-w-0 flex-1 rounded-lg border border-slate-300 bg-white px-2 py-2"
              value={text}
              onChange={(e) => setText(e.target.value)}
              data-testid="student-search-input"
            />
            <button type="submit" className="btn-outline px-3" disabled={text.trim() === ''}>
              探す
            </button>
          </div>
        </form>
      </search>
      <div aria-live="polite">
        {asked === '' ? null : found.isPending ? (
          <p className="mt-2 text-xs text-slate-700">探しています…</p>
        ) : found.isError ? (
          <p className="mt-2 text-xs text-red-dark">探せませんでした。時間をおいてもう一度お試しください</p>
        ) : found.data.length === 0 ? (
          <p className="mt-2 text-xs text-slate-700" data-testid="student-search-empty">
            「{asked}」を含む受講者は見つかりませんでした。
          </p>
        ) : (
          <>
            <ul className="mt-2 divide-y divide-slate-100" data-testid="student-search-results">
              {found.data.map((d) => (
                <li key={d.id}>
                  <Link to="/message" search={{ to: d.id }} className="block py-2 text-sm hover:underline">
                    {addressName(d.nickname, d.is_teacher)}
                  </Link>
                </li>
              ))}
            </ul>
            {found.data.length >= DESTINATION_SEARCH_LIMIT ? (
              <p className="mt-1 text-xs text-slate-700">
                {DESTINATION_SEARCH_LIMIT}人まで表示しています。ことばを足して絞り込んでください。
              </p>
            ) : null}
          </>
        )}
      </div>
    </div>
  )
}
