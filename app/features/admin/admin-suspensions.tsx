import { useMutation, useQueryClient, useSuspenseQuery } from '@tanstack/react-query'
import { Link } from '@tanstack/react-router'
import { useId, useState } from 'react'
import { showErrorSnackbar, showSnackbar } from '~/components/shell/ui-store'
import { inputClass } from '~/components/ui/form-parts'
import type { AdminSuspension } from '~/contract/v1/trust'
import { formatDateJa, formatTimeJa } from '~/lib/format'
import { ADMIN_LIST_PAGE_SIZE } from '~/lib/page-sizes'
import { liftSuspension } from './admin.functions'
import { AdminPage, AdminPager } from './admin-page'
import { adminSuspensionsQuery } from './queries'

const when = (iso: string) => `${formatDateJa(iso)} ${formatTimeJa(iso)}`

/**
 * /admin/suspensions: suspended accounts, the most recent first, and lifting a suspension (a mistake, or a member
 * who was heard). Lifting lets them sign in again and brings the classes the suspension took down back as drafts.
 */
export function AdminSuspensions({ page }: { page: number }) {
  const list = useSuspenseQuery(adminSuspensionsQuery(page)).data
  const full = list.length >= ADMIN_LIST_PAGE_SIZE
  return (
    <AdminPage
      title="利用停止中のアカウント"
      lead="新しく利用停止した順に並びます。解除すると本人に通知され、操作は監査ログに記録されます。"
    >
      {list.length === 0 ? (
        <p className="mt-6" data-testid="suspensions-empty">
          {page > 1 ? 'このページにアカウントはありません。' : '利用停止中のアカウントはありません。'}
        </p>
      ) : (
        <ul className="mt-6 flex flex-col gap-4" data-testid="suspensions">
          {list.map((s) => (
            <SuspensionItem key={s.user.id} s={s} />
          ))}
        </ul>
      )}
      <AdminPager
        page={page}
        hasNext={full}
        newer="新しい停止へ"
        older="古い停止へ"
        renderLink={(p, link) => <Link to="/admin/suspensions" search={{ page: p }} {...link} />}
      />
    </AdminPage>
  )
}

function SuspensionItem({ s }: { s: AdminSuspension }) {
  const uid = useId()
  const queryClient = useQueryClient()
  const [note, setNote] = useState('')
  const [confirming, setConfirming] = useState(false)
  const lift = useMutation({
    mutationFn: () =>
      liftSuspension({ data: { user_id: s.user.id, body: { note, suspended_at: s.suspended_at } } }),
    onSuccess: async (result) => {
      if (!result.ok) {
        if (result.status === 409) await queryClient.invalidateQueries({ queryKey: ['admin'] })
        return showErrorSnackbar(result.message)
      }
      await queryClient.invalidateQueries({ queryKey: ['admin'] })
      const { classes_restored: classes, reviews_restored: reviews } = result.data
      const done = [
        classes > 0 ? `クラス${classes}件を下書きに戻しました` : '',
        reviews > 0 ? `レビュー${reviews}件を再表示しました` : '',
      ].filter(Boolean)
      showSnackbar({ message: `利用停止を解除しました${done.length ? `（${done.join('・')}）` : ''}` })
    },
    onError: () => showErrorSnackbar('処理できませんでした。時間をおいてもう一度お試しください'),
  })
  return (
    <li className="rounded-2xl border border-slate-200 bg-white p-4" data-testid="suspension">
      <p className="font-bold">
        {s.user.nickname}（ID {s.user.id}）{s.user.is_teacher ? '・先生' : ''}
      </p>
      <p className="mt-1 text-xs text-slate-600">
        <time dateTime={s.suspended_at}>{when(s.suspended_at)}</time>に利用停止
        {s.hidden_classes > 0 ? `・非公開にしたクラス${s.hidden_classes}件` : ''}
        {s.hidden_reviews > 0 ? `・非表示にしたレビュー${s.hidden_reviews}件` : ''}
      </p>
      {s.note ? <p className="mt-1 whitespace-pre-line break-words text-sm">メモ：{s.note}</p> : null}
      <div className="mt-3 flex flex-col gap-3 border-t border-slate-200 pt-3">
        <div>
          <label htmlFor={`${uid}-note`} className="text-sm font-bold">
            解除の理由（運営内だけで見えます）
          </label>
          <textarea
            id={`${uid}-note`}
            rows={2}
            maxLength={500}
            className={inputClass}
            value={note}
            onChange={(e) => setNote(e.target.value)}
          />
        </div>
        {confirming ? (
          <div className="rounded-xl border border-red-200 bg-red-50 p-3 text-sm" role="alert">
            <p>
              {s.user.nickname}
              さんはふたたびログインできるようになります。
              {s.hidden_classes > 0 ? '非公開にしたクラスは下書きに戻ります。' : ''}
              {s.hidden_reviews > 0 ? '非表示にしたレビューは再び表示されます。' : ''}
              キャンセルした予約は元に戻りません。よろしいですか？
            </p>
            <div className="mt-2 flex flex-wrap gap-2">
              <button
                type="button"
                className="btn-primary"
                disabled={lift.isPending}
                onClick={() => lift.mutate()}
                data-testid="suspension-lift-confirm"
              >
                解除する
              </button>
              <button type="button" className="btn-ghost" onClick={() => setConfirming(false)}>
                やめる
              </button>
            </div>
          </div>
        ) : (
          <div>
            <button
              type="button"
              className="btn-outline"
              onClick={() => setConfirming(true)}
              data-testid="suspension-lift"
            >
              利用停止を解除する
            </button>
          </div>
        )}
      </div>
    </li>
  )
}
