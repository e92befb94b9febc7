import { useSuspenseQuery } from '@tanstack/react-query'
import { Link } from '@tanstack/react-router'
import type { MasterItem } from '~/contract/v1/master'
import { formatDateJa } from '~/lib/format'
import { organizationKindLabels } from '~/lib/organization-kind'
import { fixedSizeSrcSet } from '~/lib/responsive-image'
import { profileQuery } from './queries'

const roleLabels = { parent: '保護者', learner: '学習者', teacher: '先生' } as const

function nameOf(list: MasterItem[], id: number | null | undefined) {
  return list.find((m) => m.id === id)?.name ?? '未設定'
}

/** /profile: the member's basic information, learner profiles and organisation. */
export function ProfileView() {
  const { me, masters } = useSuspenseQuery(profileQuery()).data
  const rows: [string, string][] = [
    ['ニックネーム', me.nickname],
    ['お名前', me.name],
    ['ふりがな', me.name_kana],
    ['メールアドレス', me.email ?? '（LINEでログイン）'],
    ['登録区分', roleLabels[me.role]],
    ...(me.role === 'learner'
      ? ([
          ['学校区分', nameOf(masters.schoolTypes, me.school_type_id)],
          ['学年', nameOf(masters.targetGrades, me.target_grade_id)],
        ] as [string, string][])
      : ([['職業', nameOf(masters.professions, me.profession_id)]] as [string, string][])),
    ['登録日', formatDateJa(me.created_at)],
  ]
  return (
    <div className="mx-auto max-w-3xl px-4 py-10">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h1 className="text-2xl font-black">基本情報</h1>
        <div className="flex flex-wrap gap-2">
          <Link to="/notification_settings" className="btn-outline" data-testid="profile-notifications-link">
            メール通知
          </Link>
          <Link to="/profile/sessions" className="btn-outline" data-testid="profile-sessions-link">
            ログイン中の端末
          </Link>
          <Link to="/profile/edit_user" className="btn-outline" data-testid="profile-edit-link">
            編集する
          </Link>
        </div>
      </div>
      <section className="mt-6 rounded-2xl border border-slate-200 bg-white p-6" aria-labelledby="me-heading">
        <div className="flex items-center gap-4">
          {me.avatar_url ? (
            <img
              src={me.avatar_url}
              {...fixedSizeSrcSet(me.avatar_url, 64)}
              alt=""
              width={64}
              height={64}
              className="h-16 w-16 rounded-full object-cover"
            />
          ) : (
            <span className="flex h-16 w-16 items-center justify-center rounded-full bg-purple-dark text-2xl font-bold text-white">
              {me.nickname.slice(0, 1)}
            </span>
          )}
          <h2 id="me-heading" className="text-lg font-bold">
            {me.nickname} さん
          </h2>
        </div>
        <dl className="mt-6 divide-y divide-slate-200 border-y border-slate-200" data-testid="profile-facts">
          {rows.map(([k, v]) => (
            <div key={k} className="grid gap-1 py-3 sm:grid-cols-[10rem_1fr]">
              <dt className="text-sm font-bold text-slate-700">{k}</dt>
              <dd>{v}</dd>
            </div>
          ))}
        </dl>
        {me.introduction ? (
          <p className="mt-4 whitespace-pre-line text-sm text-slate-700">{me.introduction}</p>
        ) : null}
      </section>

      <section
        className="mt-8 rounded-2xl border border-slate-200 bg-white p-5"
        aria-labelledby="teaching-heading"
        data-testid="profile-teaching"
      >
        <h2 id="teaching-heading" className="text-lg font-bold">
          先生として活動する
        </h2>
        <p className="mt-2 text-sm text-slate-700">
          {me.is_verified_teacher
            ? '本人確認が完了しています。クラスを公開できます。'
            : me.is_teacher
              ? '先生として活動中です。本人確認が完了するとクラスを公開できます。'
              : '本人確認を申請すると、先生としてクラスを開けます。'}
        </p>
        <Link
          to="/profile/teacher"
          className="btn-outline mt-3 inline-flex"
          data-testid="profile-teaching-link"
        >
          {me.is_verified_teacher || me.is_teacher ? '本人確認の状況' : '先生として活動する'}
        </Link>
      </section>

      {me.role === 'parent' ? (
        <section className="mt-8" aria-labelledby="learners-heading">
          <h2 id="learners-heading" className="text-lg font-bold">
            お子さまのプロフィール
          </h2>
          {me.learners.length ? (
            <ul className="mt-3 grid gap-3 sm:grid-cols-2" data-testid="learner-list">
              {me.learners.map((l) => (
                <li key={l.id} className="rounded-xl border border-slate-200 bg-white p-4">
                  <p className="font-bold">{l.nickname}</p>
                  <p className="text-sm text-slate-700">
                    {nameOf(masters.schoolTypes, l.school_type_id)}・
                    {nameOf(masters.targetGrades, l.target_grade_id)}
                  </p>
                </li>
              ))}
            </ul>
          ) : (
            <p className="mt-3 text-sm text-slate-700">お子さまのプロフィールはまだありません。</p>
          )}
        </section>
      ) : null}

      {me.organization ? (
        <section className="mt-8" aria-labelledby="org-heading">
          <h2 id="org-heading" className="text-lg font-bold">
            所属している法人・団体
          </h2>
          <p className="mt-3 rounded-xl border border-slate-200 bg-white p-4">
            {me.organization.name}（{organizationKindLabels[me.organization.kind]}・
            {me.organization.role === 'owner' ? '代表' : 'メンバー'}）
          </p>
        </section>
      ) : null}
    </div>
  )
}
