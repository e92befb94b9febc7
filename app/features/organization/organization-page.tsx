import { useQueryClient, useSuspenseQuery } from '@tanstack/react-query'
import { Link } from '@tanstack/react-router'
import { useServerFn } from '@tanstack/react-start'
import { useId, useState } from 'react'
import { showErrorSnackbar, showSnackbar } from '~/components/shell/ui-store'
import { Modal } from '~/components/ui/modal'
import { ScrollRegion } from '~/components/ui/scroll-region'
import { JoinOrganizationBody } from '~/contract/v1/org-management'
import type { OrganizationDeepMe, OrgUser } from '~/contract/v1/organizations'
import type { OrganizationSales } from '~/contract/v1/sales'
import type { ActionResult } from '~/lib/action-result'
import { addressName, formatDateJa, groupDigits } from '~/lib/format'
import { formatMonthJa, shiftMonth } from '~/lib/month'
import { organizationKindLabels } from '~/lib/organization-kind'
import { CreateNeedsVerification } from './create-needs-verification'
import {
  joinOrganization,
  leaveOrganization,
  regenerateCode,
  removeMember,
  transferOwnership,
} from './organization.functions'
import { organizationPageQuery, refreshOrganizationViews } from './queries'

const yen = (n: number) => `¥${groupDigits(n)}`

/** /organization_management: the owner manages; a member sees; a teacher outside any organisation joins. */
export function OrganizationPage({ month }: { month?: string }) {
  const { isTeacher, canCreate, org, sales } = useSuspenseQuery(organizationPageQuery(month)).data
  return (
    <div className="mx-auto max-w-4xl px-4 py-8">
      <h1 className="text-2xl font-black">団体管理</h1>
      {org ? (
        <>
          <OrganizationSummary org={org} />
          {org.my_role === 'owner' ? <InvitationCodePanel code={org.invitation_code ?? ''} /> : null}
          <Members org={org} />
          {org.my_role === 'member' ? <LeaveOrganization name={org.name} /> : null}
          {sales ? <SalesRollUp sales={sales} /> : null}
        </>
      ) : (
        <NoOrganization isTeacher={isTeacher} canCreate={canCreate} />
      )}
    </div>
  )
}

/**
 * One confirm-then-act flow of this page: the dialog's subject (a member, or `true`), the write, what follows. A
 * refusal is shown as the API words it; a 404 (the member left, or the organisation changed hands or the caller was
 * removed in another tab) also closes the dialog and shows the page as it is now.
 */
function useConfirmedAction<S>(
  act: (subject: S) => Promise<ActionResult<unknown>>,
  texts: { done: (subject: S) => string; failed: string },
) {
  const [subject, setSubject] = useState<S | null>(null)
  const [pending, setPending] = useState(false)
  const queryClient = useQueryClient()
  const refresh = () => refreshOrganizationViews(queryClient)
  // Closes the dialog of this subject only: one opened meanwhile (やめる pressed while this ran) stays open.
  const closeOf = (done: S) => setSubject((open) => (open === done ? null : open))
  async function confirm() {
    if (subject === null) return
    setPending(true)
    try {
      const result = await act(subject)
      if (!result.ok) {
        showErrorSnackbar(result.message)
        if (result.status === 404) {
          closeOf(subject)
          await refresh()
        }
        return
      }
      closeOf(subject)
      await refresh()
      showSnackbar({ message: texts.done(subject) })
    } catch {
      showErrorSnackbar(texts.failed)
    } finally {
      setPending(false)
    }
  }
  return { subject, open: setSubject, close: () => setSubject(null), pending, confirm }
}

function OrganizationSummary({ org }: { org: OrganizationDeepMe }) {
  return (
    <section className="mt-6 rounded-2xl border border-slate-200 bg-white p-6" aria-labelledby="org-name">
      <p className="text-sm text-slate-700">{organizationKindLabels[org.kind]}</p>
      <h2 id="org-name" className="text-xl font-bold" data-testid="org-name">
        {org.name}
      </h2>
      <p className="mt-1 text-sm">代表者：{org.representative}</p>
      {org.url ? (
        <p className="mt-1 text-sm">
          <a href={org.url} className="underline" rel="noopener noreferrer" target="_blank">
            {org.url}
          </a>
        </p>
      ) : null}
      {org.description ? (
        <p className="mt-3 whitespace-pre-line text-sm text-slate-700">{org.description}</p>
      ) : null}
      <p className="mt-3 text-sm">
        クラス {org.class_work_count}件（公開中 {org.published_class_work_count}件）・あなたの役割：
        {org.my_role === 'owner' ? 'オーナー' : 'メンバー'}
      </p>
      {org.my_role === 'owner' ? (
        <Link to="/profile/edit_organization" className="btn-outline mt-4 inline-flex px-4 py-2">
          団体情報を編集
        </Link>
      ) : null}
    </section>
  )
}

function InvitationCodePanel({ code }: { code: string }) {
  const regenerate = useServerFn(regenerateCode)
  const dialog = useConfirmedAction(() => regenerate(), {
    done: () => '招待コードを作り直しました',
    failed: '招待コードを作り直せませんでした',
  })

  return (
    <section className="mt-6 rounded-2xl border border-slate-200 bg-white p-6" aria-labelledby="code-heading">
      <h2 id="code-heading" className="text-lg font-bold">
        招待コード
      </h2>
      <p className="mt-1 text-sm text-slate-700">
        先生にこのコードを伝えると、団体のメンバーとして参加できます。
      </p>
      <p className="mt-3 font-mono text-2xl font-bold tracking-widest" data-testid="invitation-code">
        {code}
      </p>
      <button
        type="button"
        className="btn-outline mt-4 px-4 py-2"
        onClick={() => dialog.open(true)}
        data-testid="regenerate-code"
      >
        コードを作り直す
      </button>
      <Modal
        open={dialog.subject !== null}
        onOpenChange={(o) => (o ? null : dialog.close())}
        title="招待コードを作り直しますか？"
        message="今のコードは使えなくなります。"
        testId="regenerate-dialog"
        buttons={[
          { text: 'やめる', color: 'outline', onClick: dialog.close },
          { text: '作り直す', color: 'primary', disable: dialog.pending, onClick: dialog.confirm },
        ]}
      />
    </section>
  )
}

/** Members are teachers, named as mail names them (addressName): 「ゆい 先生」, 「けんた先生」 (not 「けんた先生さん」). */
function Members({ org }: { org: OrganizationDeepMe }) {
  const remove = useServerFn(removeMember)
  const transfer = useServerFn(transferOwnership)
  const removal = useConfirmedAction((m: OrgUser) => remove({ data: { userId: m.user_id } }), {
    done: () => 'メンバーを外しました',
    failed: 'メンバーを外せませんでした',
  })
  const handOver = useConfirmedAction((m: OrgUser) => transfer({ data: { userId: m.user_id } }), {
    done: (m) => `${addressName(m.nickname, true)}にオーナーを譲りました`,
    failed: 'オーナーを譲れませんでした',
  })
  const isOwner = org.my_role === 'owner'
  const target = removal.subject
  const heir = handOver.subject

  return (
    <section className="mt-6" aria-labelledby="members-heading">
      <h2 id="members-heading" className="text-lg font-bold">
        メンバー（{org.members.length}人）
      </h2>
      <ul
        className="mt-3 divide-y divide-slate-200 rounded-2xl border border-slate-200 bg-white"
        data-testid="org-members"
      >
        {org.members.map((m) => (
          <li
            key={m.user_id}
            className="flex flex-wrap items-center justify-between gap-2 p-4"
            data-testid="org-member"
          >
            <div>
              <p className="font-bold">
                {m.nickname}
                {m.name ? <span className="ml-2 text-sm font-normal text-slate-700">{m.name}</span> : null}
              </p>
              <p className="text-sm text-slate-700">
                {m.role === 'owner' ? 'オーナー' : 'メンバー'}・{formatDateJa(m.joined_at)} 参加・クラス{' '}
                {m.class_work_count}件
              </p>
            </div>
            {isOwner && m.role !== 'owner' ? (
              <div className="flex gap-2">
                <button
                  type="button"
                  className="btn-ghost px-3 py-1 text-sm"
                  onClick={() => handOver.open(m)}
                  aria-label={`${addressName(m.nickname, true)}にオーナーを譲る`}
                  data-testid="transfer-ownership"
                >
                  オーナーを譲る
                </button>
                <button
                  type="button"
                  className="btn-ghost px-3 py-1 text-sm text-red-dark"
                  onClick={() => removal.open(m)}
                  aria-label={`${addressName(m.nickname, true)}を団体から外す`}
                >
                  外す
                </button>
              </div>
            ) : null}
          </li>
        ))}
      </ul>
      <Modal
        open={target !== null}
        onOpenChange={(o) => (o ? null : removal.close())}
        title={`${target ? addressName(target.nickname, true) : ''}を団体から外しますか？`}
        message="その先生のクラスは団体のクラスではなくなります。招待コードは新しくなり、今のコードでは参加できなくなります。"
        testId="remove-member-dialog"
        buttons={[
          { text: 'やめる', color: 'outline', onClick: removal.close },
          { text: '外す', color: 'danger', disable: removal.pending, onClick: removal.confirm },
        ]}
      />
      <Modal
        open={heir !== null}
        onOpenChange={(o) => (o ? null : handOver.close())}
        title={`${heir ? addressName(heir.nickname, true) : ''}に団体のオーナーを譲りますか？`}
        message="譲ると、あなたはメンバーになり、団体の情報、招待コード、メンバーと売上は新しいオーナーが管理します。元に戻すには、新しいオーナーに譲り返してもらう必要があります。"
        testId="transfer-ownership-dialog"
        buttons={[
          { text: 'やめる', color: 'outline', onClick: handOver.close },
          { text: '譲る', color: 'primary', disable: handOver.pending, onClick: handOver.confirm },
        ]}
      />
    </section>
  )
}

/** A member leaves (the owner cannot: the organisation would have nobody to manage it). */
function LeaveOrganization({ name }: { name: string }) {
  const leave = useServerFn(leaveOrganization)
  const dialog = useConfirmedAction(() => leave(), {
    done: () => `${name}を抜けました`,
    failed: '団体を抜けられませんでした',
  })

  return (
    <section className="mt-6" aria-labelledby="leave-heading">
      <h2 id="leave-heading" className="text-lg font-bold">
        団体を抜ける
      </h2>
      <p className="mt-1 text-sm text-slate-700">
        抜けると、あなたのクラスは団体のクラスではなくなります。予約や売上はそのまま残ります。
      </p>
      <button
        type="button"
        className="btn-outline mt-3 px-4 py-2 text-red-dark"
        onClick={() => dialog.open(true)}
        data-testid="leave-organization"
      >
        団体を抜ける
      </button>
      <Modal
        open={dialog.subject !== null}
        onOpenChange={(o) => (o ? null : dialog.close())}
        title={`${name}を抜けますか？`}
        message="あなたのクラスは団体のクラスではなくなります。もう一度参加するには招待コードが必要です。"
        testId="leave-organization-dialog"
        buttons={[
          { text: 'やめる', color: 'outline', onClick: dialog.close },
          { text: '抜ける', color: 'danger', disable: dialog.pending, onClick: dialog.confirm },
        ]}
      />
    </section>
  )
}

function SalesRollUp({ sales }: { sales: OrganizationSales }) {
  const prev = shiftMonth(sales.month, -1)
  const next = shiftMonth(sales.month, 1)
  return (
    <section className="mt-8" aria-labelledby="org-sales-heading">
      <div className="flex flex-wrap items-center gap-2">
        <h2 id="org-sales-heading" className="text-lg font-bold">
          団体の売上 {formatMonthJa(sales.month)}
        </h2>
        <Link
          to="/organization_management"
          search={{ month: prev }}
          className="btn-outline px-3 py-1"
          aria-label={`前の月（${formatMonthJa(prev)}）`}
        >
          ‹
        </Link>
        <Link
          to="/organization_management"
          search={{ month: next }}
          className="btn-outline px-3 py-1"
          aria-label={`次の月（${formatMonthJa(next)}）`}
        >
          ›
        </Link>
      </div>
      <ScrollRegion label="メンバー別の売上" className="mt-3">
        <table className="w-full min-w-[32rem] text-left text-sm" data-testid="org-sales">
          <thead>
            <tr className="border-b border-slate-200">
              <th scope="col" className="py-2 pr-3">
                メンバー
              </th>
              <th scope="col" className="py-2 pr-3 text-right">
                予約数
              </th>
              <th scope="col" className="py-2 pr-3 text-right">
                売上
              </th>
              <th scope="col" className="py-2 pr-3 text-right">
                手数料
              </th>
              <th scope="col" className="py-2 pr-3 text-right">
                受取額
              </th>
              <th scope="col" className="py-2 text-right">
                返金
              </th>
            </tr>
          </thead>
          <tbody>
            {sales.by_member.map((m) => (
              <tr key={m.user_id} className="border-b border-slate-100">
                <td className="py-2 pr-3">
                  {m.nickname}
                  {m.former_member ? (
                    <span className="ml-1 text-xs text-slate-500">（元メンバー）</span>
                  ) : null}
                </td>
                <td className="py-2 pr-3 text-right">{m.count}</td>
                <td className="py-2 pr-3 text-right">{yen(m.gross)}</td>
                <td className="py-2 pr-3 text-right">{yen(m.commission)}</td>
                <td className="py-2 pr-3 text-right">{yen(m.net)}</td>
                <td className="py-2 text-right">{m.refund_count}件</td>
              </tr>
            ))}
            <tr className="font-bold">
              <td className="py-2 pr-3">合計</td>
              <td className="py-2 pr-3 text-right">{sales.totals.count}</td>
              <td className="py-2 pr-3 text-right">{yen(sales.totals.gross)}</td>
              <td className="py-2 pr-3 text-right">{yen(sales.totals.commission)}</td>
              <td className="py-2 pr-3 text-right">{yen(sales.totals.net)}</td>
              <td className="py-2 text-right">{sales.totals.refund_count}件</td>
            </tr>
          </tbody>
        </table>
      </ScrollRegion>
    </section>
  )
}

function NoOrganization({ isTeacher, canCreate }: { isTeacher: boolean; canCreate: boolean }) {
  return (
    <div className="mt-6 grid gap-6">
      <p className="text-slate-700">
        団体（法人・グループ）に所属すると、クラスや先生のページに団体名が表示されます。
      </p>
      {isTeacher ? <JoinForm /> : null}
      <section className="rounded-2xl border border-slate-200 bg-white p-6" aria-labelledby="create-heading">
        <h2 id="create-heading" className="text-lg font-bold">
          団体を作成する
        </h2>
        {canCreate ? (
          <>
            <p className="mt-1 text-sm text-slate-700">
              あなたが代表となって団体を作り、先生を招待できます。
            </p>
            <Link to="/profile/edit_organization" className="btn-outline mt-4 inline-flex px-4 py-2">
              団体を作成
            </Link>
          </>
        ) : (
          <CreateNeedsVerification isTeacher={isTeacher} />
        )}
      </section>
    </div>
  )
}

function JoinForm() {
  const uid = useId()
  const [code, setCode] = useState('')
  const [error, setError] = useState<string>()
  const [pending, setPending] = useState(false)
  const join = useServerFn(joinOrganization)
  const queryClient = useQueryClient()

  async function onSubmit(e: React.FormEvent) {
    e.preventDefault()
    const parsed = JoinOrganizationBody.safeParse({ invitation_code: code })
    if (!parsed.success) {
      setError(parsed.error.issues[0]?.message)
      return
    }
    setError(undefined)
    setPending(true)
    try {
      const result = await join({ data: parsed.data })
      if (!result.ok) {
        setError(result.fieldErrors.invitation_code ?? result.message)
        return
      }
      await refreshOrganizationViews(queryClient)
      showSnackbar({ message: `${result.data}に参加しました` })
    } catch {
      showErrorSnackbar('参加できませんでした')
    } finally {
      setPending(false)
    }
  }

  return (
    <section className="rounded-2xl border border-slate-200 bg-white p-6" aria-labelledby={`${uid}-heading`}>
      <h2 id={`${uid}-heading`} className="text-lg font-bold">
        招待コードで参加する
      </h2>
      <form
        onSubmit={onSubmit}
        noValidate
        className="mt-3 flex flex-wrap items-end gap-3"
        data-testid="join-form"
      >
        <div className="min-w-56 flex-1">
          <label htmlFor={`${uid}-code`} className="text-sm font-bold">
            招待コード
          </label>
          <input
            id={`${uid}-code`}
            className="mt-1 w-full rounded-lg border border-slate-300 bg-white px-3 py-2 font-mono text-[1rem] text-slate-900 uppercase focus:border-purple-dark aria-[invalid=true]:border-red-dark"
            value={code}
            autoComplete="off"
            aria-invalid={Boolean(error)}
            aria-describedby={error ? `${uid}-error` : undefined}
            onChange={(e) => setCode(e.target.value)}
          />
        </div>
        <button type="submit" className="btn-primary px-5 py-2" disabled={pending}>
          参加する
        </button>
      </form>
      {error ? (
        <p id={`${uid}-error`} className="mt-2 text-sm font-bold text-red-dark" role="alert">
          {error}
        </p>
      ) : null}
    </section>
  )
}
