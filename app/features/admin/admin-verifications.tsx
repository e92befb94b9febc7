import { useMutation, useQueryClient, useSuspenseQuery } from '@tanstack/react-query'
import { Link } from '@tanstack/react-router'
import { useId, useState } from 'react'
import { showErrorSnackbar, showSnackbar } from '~/components/shell/ui-store'
import { FieldError, inputClass } from '~/components/ui/form-parts'
import { type AdminVerification, DecideVerificationBody } from '~/contract/v1/trust'
import { ageOn } from '~/lib/age'
import { formatDateJa, formatTimeJa } from '~/lib/format'
import { ADMIN_LIST_PAGE_SIZE } from '~/lib/page-sizes'
import { decideVerification } from './admin.functions'
import { AdminPage, AdminPager } from './admin-page'
import { adminVerificationsQuery, type VerificationStatus } from './queries'

const when = (iso: string) => `${formatDateJa(iso)} ${formatTimeJa(iso)}`
const TABS: { status: VerificationStatus; label: string }[] = [
  { status: 'pending', label: '審査待ち' },
  { status: 'approved', label: '承認済み' },
  { status: 'rejected', label: '却下' },
]

/**
 * /admin/verifications: 本人確認 submissions, the longest wait first. The images open through an audited route
 * (every view is in the audit log) and are deleted 30 days after the decision.
 */
export function AdminVerifications(props: { status: VerificationStatus; page: number }) {
  const list = useSuspenseQuery(adminVerificationsQuery(props.status, props.page)).data
  const status = props.status === 'pending' ? {} : { status: props.status }
  return (
    <AdminPage
      title="本人確認"
      lead="書類の氏名・生年月日・顔写真が申請内容と一致するかを確認してください。画像の閲覧は監査ログに記録されます。"
      wide
    >
      <nav aria-label="申請の状態" className="mt-6 flex flex-wrap gap-2">
        {TABS.map((t) => (
          <Link
            key={t.status}
            to="/admin/verifications"
            search={t.status === 'pending' ? {} : { status: t.status }}
            className={
              t.status === props.status
                ? 'btn-primary px-3 py-1.5 text-sm'
                : 'btn-outline px-3 py-1.5 text-sm'
            }
            aria-current={t.status === props.status ? 'page' : undefined}
          >
            {t.label}
          </Link>
        ))}
      </nav>
      {list.length === 0 ? (
        <p className="mt-6" data-testid="verifications-empty">
          {props.status === 'pending' && props.page === 1
            ? '審査待ちの申請はありません。'
            : '該当する申請はありません。'}
        </p>
      ) : (
        <ul className="mt-6 flex flex-col gap-4" data-testid="verifications">
          {list.map((v) => (
            <VerificationItem key={v.id} v={v} />
          ))}
        </ul>
      )}
      <AdminPager
        page={props.page}
        hasNext={list.length >= ADMIN_LIST_PAGE_SIZE}
        newer={`前の${ADMIN_LIST_PAGE_SIZE}件`}
        older={`次の${ADMIN_LIST_PAGE_SIZE}件`}
        renderLink={(p, link) => <Link to="/admin/verifications" search={{ ...status, page: p }} {...link} />}
      />
    </AdminPage>
  )
}

function VerificationItem({ v }: { v: AdminVerification }) {
  const uid = useId()
  const queryClient = useQueryClient()
  const [reason, setReason] = useState('')
  const [error, setError] = useState<string | undefined>()
  const decide = useMutation({
    mutationFn: (decision: 'approve' | 'reject') =>
      decideVerification({
        data: { id: v.id, body: decision === 'approve' ? { decision } : { decision, reason } },
      }),
    onSuccess: async (result) => {
      if (!result.ok) {
        setError(result.fieldErrors.reason ?? result.message)
        // Decided by another operator meanwhile: the list shows it as it is now.
        if (result.status === 409)
          await queryClient.invalidateQueries({ queryKey: ['admin', 'verifications'] })
        return showErrorSnackbar(result.message)
      }
      // Every operator view: the lists, the home page's counts, the audit log.
      await queryClient.invalidateQueries({ queryKey: ['admin'] })
      showSnackbar({ message: result.data.status === 'approved' ? '承認しました' : '却下しました' })
    },
    onError: () => showErrorSnackbar('処理できませんでした。時間をおいてもう一度お試しください'),
  })
  const facts: [string, string][] = [
    ['本名', `${v.legal_name}（${v.legal_name_kana}）`],
    // By Tokyo dates, as the API counted it, whatever the operator's device is set to.
    ['生年月日', `${v.birth_date}（${ageOn(v.birth_date, new Date())}歳）`],
    ['会員', `${v.user.nickname}（ID ${v.user.id}・${v.user.email ?? 'メールなし'}）`],
    ['申請日時', when(v.submitted_at)],
    ...(v.decided_at ? ([['審査日時', when(v.decided_at)]] as [string, string][]) : []),
    ...(v.reason ? ([['却下の理由', v.reason]] as [string, string][]) : []),
  ]
  return (
    <li className="rounded-2xl border border-slate-200 bg-white p-4" data-testid="verification">
      <dl className="grid gap-x-4 gap-y-1 text-sm sm:grid-cols-[8rem_1fr]">
        {facts.map(([k, val]) => (
          <div key={k} className="contents">
            <dt className="font-bold text-slate-700">{k}</dt>
            <dd className="break-words">{val}</dd>
          </div>
        ))}
      </dl>
      <p className="mt-3 text-sm font-bold text-slate-700">経歴</p>
      <p className="mt-1 whitespace-pre-line break-words text-sm">{v.career}</p>
      {v.has_documents ? (
        <div className="mt-3 flex flex-wrap gap-3">
          {(['face', 'document'] as const).map((kind) => (
            <a
              key={kind}
              href={`/downloads/verification/${v.id}/${kind}`}
              target="_blank"
              rel="noopener noreferrer"
              className="btn-outline px-3 py-1.5 text-sm"
              data-testid={`verification-${kind}-link`}
            >
              {kind === 'face' ? '顔写真を見る' : '本人確認書類を見る'}
            </a>
          ))}
        </div>
      ) : (
        <p className="mt-3 text-sm text-slate-600">画像は保存期間を過ぎたため削除しました。</p>
      )}
      {v.status === 'pending' ? (
        <div className="mt-4 flex flex-col gap-3 border-t border-slate-200 pt-4">
          <div>
            <label htmlFor={`${uid}-reason`} className="text-sm font-bold">
              却下の理由（却下するときは必須・本人にメールで伝わります）
            </label>
            <textarea
              id={`${uid}-reason`}
              rows={2}
              className={inputClass}
              value={reason}
              aria-invalid={Boolean(error)}
              aria-describedby={error ? `${uid}-error` : undefined}
              onChange={(e) => setReason(e.target.value)}
              data-testid="verification-reason"
            />
            <FieldError id={`${uid}-error`} message={error} />
          </div>
          <div className="flex flex-wrap gap-2">
            <button
              type="button"
              className="btn-primary"
              disabled={decide.isPending}
              onClick={() => decide.mutate('approve')}
              data-testid="verification-approve"
            >
              承認する
            </button>
            <button
              type="button"
              className="btn-outline"
              disabled={decide.isPending}
              onClick={() => {
                // The server function's validator would refuse it before the API could name the field.
                const checked = DecideVerificationBody.safeParse({ decision: 'reject', reason })
                if (!checked.success) return setError(checked.error.issues[0]?.message)
                setError(undefined)
                decide.mutate('reject')
              }}
              data-testid="verification-reject"
            >
              却下する
            </button>
          </div>
        </div>
      ) : null}
    </li>
  )
}
