import { useMutation, useQueryClient, useSuspenseQuery } from '@tanstack/react-query'
import { Link } from '@tanstack/react-router'
import { useId, useState } from 'react'
import { showErrorSnackbar, showSnackbar } from '~/components/shell/ui-store'
import { useServerClock } from '~/components/shell/use-server-clock'
import { FieldError, inputClass } from '~/components/ui/form-parts'
import { type AdminReport, ResolveReportBody } from '~/contract/v1/trust'
import { formatDateJa, formatPrice, formatTimeJa } from '~/lib/format'
import { ADMIN_LIST_PAGE_SIZE } from '~/lib/page-sizes'
import { REPORT_REASONS, REPORT_TARGETS } from '~/lib/report-reasons'
import { resolveReport } from './admin.functions'
import { AdminPage, AdminPager } from './admin-page'
import { adminReportsQuery, type ReportSearch } from './queries'
import { reportAge } from './report-age'

const when = (iso: string) => `${formatDateJa(iso)} ${formatTimeJa(iso)}`
const STATUS_TABS: { status: NonNullable<ReportSearch['status']>; label: string }[] = [
  { status: 'open', label: '未対応' },
  { status: 'dismissed', label: '対応不要' },
  { status: 'hidden', label: '非表示にした' },
  { status: 'suspended', label: '利用停止した' },
]
const KINDS = ['class', 'teacher', 'message', 'review'] as const
const HIDE_LABELS = {
  class: 'クラスを非表示にする',
  message: 'メッセージを削除する',
  review: 'レビューを非表示にする',
} as const

/** What hiding does, asked before it is done: none of it can be undone from here. */
const HIDE_CONFIRM = {
  class:
    'このクラスは非表示になり、今後の予約はすべてキャンセル・全額返金されます。先生は再び公開できません。よろしいですか？',
  message: 'このメッセージを削除します。相手の画面からも消え、元に戻せません。よろしいですか？',
  review: 'このレビューを非表示にし、評価の集計からも外します。よろしいですか？',
} as const

const AGE_TICK_MS = 60_000

/**
 * /admin/reports: reports by age (oldest open first) and kind. An operator dismisses one, hides the content (a
 * class leaves search and its page answers 410; a message or a review disappears), or suspends the account behind it.
 */
export function AdminReports(props: { search: ReportSearch }) {
  const { data, dataUpdatedAt } = useSuspenseQuery(adminReportsQuery(props.search))
  const list = data.reports
  // A report's age (the oldest come first and say so) by the server's clock: an operator's device clock that is
  // off does not make reports look older or newer (0055).
  const now = useServerClock(data.now, dataUpdatedAt, AGE_TICK_MS)
  const status = props.search.status ?? 'open'
  const page = props.search.page ?? 1
  const filter = { status: props.search.status, kind: props.search.kind }
  return (
    <AdminPage title="通報" lead="未対応の通報は古い順に並びます。対応はすべて監査ログに記録されます。" wide>
      <nav aria-label="対応の状態" className="mt-6 flex flex-wrap gap-2">
        {STATUS_TABS.map((t) => (
          <Link
            key={t.status}
            to="/admin/reports"
            search={{ ...(t.status === 'open' ? {} : { status: t.status }), kind: props.search.kind }}
            className={
              t.status === status ? 'btn-primary px-3 py-1.5 text-sm' : 'btn-outline px-3 py-1.5 text-sm'
            }
            aria-current={t.status === status ? 'page' : undefined}
          >
            {t.label}
          </Link>
        ))}
      </nav>
      <nav aria-label="通報の対象" className="mt-3 flex flex-wrap gap-2 text-sm">
        <Link
          to="/admin/reports"
          search={{ status: props.search.status }}
          className={!props.search.kind ? 'font-bold underline' : 'underline'}
        >
          すべて
        </Link>
        {KINDS.map((k) => (
          <Link
            key={k}
            to="/admin/reports"
            search={{ status: props.search.status, kind: k }}
            className={props.search.kind === k ? 'font-bold underline' : 'underline'}
          >
            {REPORT_TARGETS[k]}
          </Link>
        ))}
      </nav>
      {list.length === 0 ? (
        <p className="mt-6" data-testid="reports-empty">
          {status === 'open' && page === 1 ? '未対応の通報はありません。' : '該当する通報はありません。'}
        </p>
      ) : (
        <ul className="mt-6 flex flex-col gap-4" data-testid="reports">
          {list.map((r) => (
            <ReportItem key={r.id} r={r} now={now} />
          ))}
        </ul>
      )}
      <AdminPager
        page={page}
        hasNext={list.length >= ADMIN_LIST_PAGE_SIZE}
        newer={`前の${ADMIN_LIST_PAGE_SIZE}件`}
        older={`次の${ADMIN_LIST_PAGE_SIZE}件`}
        renderLink={(p, link) => <Link to="/admin/reports" search={{ ...filter, page: p }} {...link} />}
      />
    </AdminPage>
  )
}

function ReportItem({ r, now }: { r: AdminReport; now: number }) {
  const uid = useId()
  const queryClient = useQueryClient()
  const [note, setNote] = useState('')
  const [error, setError] = useState<string | undefined>()
  const [confirming, setConfirming] = useState<'hide' | 'suspend' | null>(null)
  /**
   * The note checked with the contract before anything is asked or sent: the server function's validator would
   * refuse it (a note over 500 characters) before the API could name the field.
   */
  const noteOk = (action: 'dismiss' | 'hide' | 'suspend') => {
    const checked = ResolveReportBody.safeParse({ action, note })
    setError(checked.success ? undefined : checked.error.issues[0]?.message)
    return checked.success
  }
  const resolve = useMutation({
    mutationFn: (action: 'dismiss' | 'hide' | 'suspend') =>
      resolveReport({ data: { id: r.id, body: { action, note } } }),
    onSuccess: async (result) => {
      if (!result.ok) {
        if (result.fieldErrors.note) setError(result.fieldErrors.note)
        // Decided by another operator meanwhile: the list shows it as it is now.
        if (result.status === 409) await queryClient.invalidateQueries({ queryKey: ['admin', 'reports'] })
        return showErrorSnackbar(result.message)
      }
      // Every operator list: a suspension adds to 利用停止中 and deletes held messages; hiding cancels lessons.
      await queryClient.invalidateQueries({ queryKey: ['admin'] })
      const d = result.data
      const cancellations =
        d.canceled_reservations > 0
          ? `（予約${d.canceled_reservations}件をキャンセルし、${formatPrice(d.refunded_amount)}を返金）`
          : ''
      showSnackbar({
        message:
          d.status === 'dismissed'
            ? '対応不要にしました'
            : d.status === 'hidden'
              ? `非表示にしました${cancellations}`
              : `アカウントを利用停止しました${cancellations}`,
      })
    },
    onError: () => showErrorSnackbar('処理できませんでした。時間をおいてもう一度お試しください'),
  })
  const canHide = r.target_type !== 'teacher'
  return (
    <li className="rounded-2xl border border-slate-200 bg-white p-4" data-testid="report">
      <p className="text-xs text-slate-600">
        <span className="rounded bg-light-grey px-1.5 py-0.5 font-bold">{REPORT_TARGETS[r.target_type]}</span>{' '}
        <time dateTime={r.created_at}>{when(r.created_at)}</time>（{reportAge(r.created_at, now)}）・通報者{' '}
        {r.reporter.nickname}
        （ID {r.reporter.id}）
      </p>
      <p className="mt-2 font-bold text-red-dark">{REPORT_REASONS[r.reason]}</p>
      {r.detail ? <p className="mt-1 whitespace-pre-line break-words text-sm">{r.detail}</p> : null}
      <div className="mt-3 rounded-xl bg-light-grey p-3 text-sm">
        <p className="whitespace-pre-line break-words">
          {r.target_url ? (
            <a href={r.target_url} target="_blank" rel="noopener noreferrer" className="underline">
              {r.target_summary}
            </a>
          ) : (
            r.target_summary
          )}
        </p>
        <p className="mt-1 text-xs text-slate-600">
          アカウント：{r.target_user.nickname}（ID {r.target_user.id}）
          {r.target_user.suspended ? '・利用停止中' : ''}
        </p>
      </div>
      {r.status === 'open' ? (
        <div className="mt-4 flex flex-col gap-3 border-t border-slate-200 pt-4">
          <div>
            <label htmlFor={`${uid}-note`} className="text-sm font-bold">
              メモ（運営内だけで見えます）
            </label>
            <textarea
              id={`${uid}-note`}
              rows={2}
              maxLength={500}
              className={inputClass}
              value={note}
              aria-invalid={Boolean(error)}
              aria-describedby={error ? `${uid}-error` : undefined}
              onChange={(e) => setNote(e.target.value)}
              data-testid="report-note"
            />
            <FieldError id={`${uid}-error`} message={error} />
          </div>
          <div className="flex flex-wrap gap-2">
            <button
              type="button"
              className="btn-outline"
              disabled={resolve.isPending}
              onClick={() => noteOk('dismiss') && resolve.mutate('dismiss')}
              data-testid="report-dismiss"
            >
              対応不要
            </button>
            {canHide ? (
              <button
                type="button"
                className="btn-outline"
                disabled={resolve.isPending}
                onClick={() => noteOk('hide') && setConfirming('hide')}
                data-testid="report-hide"
              >
                {HIDE_LABELS[r.target_type as Exclude<AdminReport['target_type'], 'teacher'>]}
              </button>
            ) : null}
            {r.target_user.suspended ? null : (
              <button
                type="button"
                className="btn-primary"
                disabled={resolve.isPending}
                onClick={() => noteOk('suspend') && setConfirming('suspend')}
                data-testid="report-suspend"
              >
                アカウントを利用停止する
              </button>
            )}
          </div>
          {confirming ? (
            <div className="rounded-xl border border-red-200 bg-red-50 p-3 text-sm" role="alert">
              <p>
                {confirming === 'suspend'
                  ? `${r.target_user.nickname}さんはログインできなくなり、公開中のクラスは非公開に、今後の予約はすべてキャンセル・全額返金されます。よろしいですか？`
                  : HIDE_CONFIRM[r.target_type as keyof typeof HIDE_CONFIRM]}
              </p>
              <div className="mt-2 flex flex-wrap gap-2">
                <button
                  type="button"
                  className="btn-primary"
                  disabled={resolve.isPending}
                  onClick={() => noteOk(confirming) && resolve.mutate(confirming)}
                  data-testid={`report-${confirming}-confirm`}
                >
                  {confirming === 'suspend'
                    ? '利用停止する'
                    : HIDE_LABELS[r.target_type as keyof typeof HIDE_LABELS]}
                </button>
                <button type="button" className="btn-ghost" onClick={() => setConfirming(null)}>
                  やめる
                </button>
              </div>
            </div>
          ) : null}
        </div>
      ) : (
        <p className="mt-3 text-xs text-slate-600">
          {r.resolved_at ? `${when(r.resolved_at)}に対応` : ''}
          {r.note ? `・メモ：${r.note}` : ''}
        </p>
      )}
    </li>
  )
}
