import { useSuspenseQuery } from '@tanstack/react-query'
import { Link, useNavigate } from '@tanstack/react-router'
import type { FormEvent } from 'react'
import { inputClass } from '~/components/ui/form-parts'
import { ScrollRegion } from '~/components/ui/scroll-region'
import { AUDIT_ACTION_LABELS, AUDIT_ACTIONS, type AuditAction } from '~/lib/audit-actions'
import { formatDateJa, formatTimeJa } from '~/lib/format'
import { AdminPage, AdminPager } from './admin-page'
import { type AuditSearch, adminAuditQuery, auditFilter } from './queries'

const when = (iso: string) => `${formatDateJa(iso)} ${formatTimeJa(iso)}`

/** /admin/audit: the append-only log, newest first, 50 a page, filtered by action, actor and Tokyo days. */
export function AdminAudit(props: { search: AuditSearch }) {
  const { entries, page, has_next } = useSuspenseQuery(adminAuditQuery(props.search)).data
  const navigate = useNavigate()
  const filter = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault()
    const form = new FormData(e.currentTarget)
    const value = (name: string) => String(form.get(name) ?? '').trim() || undefined
    const actor = Number(value('actor_id'))
    void navigate({
      to: '/admin/audit',
      search: {
        action: value('action') as AuditAction | undefined,
        actor_id: Number.isInteger(actor) && actor > 0 ? actor : undefined,
        from: value('from'),
        to: value('to'),
      },
    })
  }
  return (
    <AdminPage title="監査ログ" lead="記録は追加されるだけで、変更も削除もできません。" wide>
      <form
        onSubmit={filter}
        className="mt-6 grid gap-3 rounded-2xl border border-slate-200 bg-white p-4 sm:grid-cols-5"
      >
        <label className="text-sm font-bold sm:col-span-2">
          操作
          <select name="action" defaultValue={props.search.action ?? ''} className={inputClass}>
            <option value="">すべて</option>
            {AUDIT_ACTIONS.map((a) => (
              <option key={a} value={a}>
                {AUDIT_ACTION_LABELS[a]}
              </option>
            ))}
          </select>
        </label>
        <label className="text-sm font-bold">
          会員ID
          <input
            name="actor_id"
            inputMode="numeric"
            defaultValue={props.search.actor_id ?? ''}
            className={inputClass}
          />
        </label>
        <label className="text-sm font-bold">
          開始日
          <input name="from" type="date" defaultValue={props.search.from ?? ''} className={inputClass} />
        </label>
        <label className="text-sm font-bold">
          終了日
          <input name="to" type="date" defaultValue={props.search.to ?? ''} className={inputClass} />
        </label>
        <div className="sm:col-span-5">
          <button type="submit" className="btn-primary">
            絞り込む
          </button>
        </div>
      </form>
      {entries.length === 0 ? (
        <p className="mt-6">該当する記録はありません。</p>
      ) : (
        <ScrollRegion label="監査ログ" className="mt-6 rounded-2xl border border-slate-200 bg-white">
          <table className="w-full min-w-[44rem] text-left text-sm" data-testid="audit-table">
            <thead className="bg-light-grey">
              <tr>
                <th className="p-3">日時</th>
                <th className="p-3">操作</th>
                <th className="p-3">だれが</th>
                <th className="p-3">対象</th>
                <th className="p-3">アドレス</th>
                <th className="p-3">変更前 → 変更後</th>
              </tr>
            </thead>
            <tbody className="divide-y divide-slate-200">
              {entries.map((e) => (
                <tr key={e.id} data-testid="audit-entry">
                  <td className="whitespace-nowrap p-3">
                    <time dateTime={e.at}>{when(e.at)}</time>
                  </td>
                  <td className="p-3 font-bold">{AUDIT_ACTION_LABELS[e.action]}</td>
                  <td className="break-all p-3">
                    {e.actor_label}
                    {e.actor_id ? <span className="text-slate-500">（ID {e.actor_id}）</span> : null}
                  </td>
                  <td className="p-3">{e.target_type ? `${e.target_type} ${e.target_id ?? ''}` : '—'}</td>
                  <td className="p-3">{e.address ?? '—'}</td>
                  <td className="break-all p-3 font-mono text-xs">
                    {e.before ?? '—'} → {e.after ?? '—'}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </ScrollRegion>
      )}
      <AdminPager
        page={page}
        hasNext={has_next}
        newer="新しい記録へ"
        older="古い記録へ"
        renderLink={(p, link) => (
          <Link to="/admin/audit" search={{ ...auditFilter(props.search), page: p }} {...link} />
        )}
      />
    </AdminPage>
  )
}
