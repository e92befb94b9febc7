import { useSuspenseQuery } from '@tanstack/react-query'
import { Link } from '@tanstack/react-router'
import type { MyClassWork } from '~/contract/v1/class-works'
import { formatPrice, formatRunJa } from '~/lib/format'
import { fixedSizeSrcSet } from '~/lib/responsive-image'
import { myClassesQuery } from './queries'

export type ClassTab = 'published' | 'unpublished'

const tabs: { value: ClassTab; label: string }[] = [
  { value: 'published', label: '公開中' },
  { value: 'unpublished', label: '非公開' },
]

/** /class_management: the teacher's classes in two tabs; non-teachers learn how to become one. */
export function ClassManagementPage({ tab }: { tab: ClassTab }) {
  const { isTeacher, isVerified, classes } = useSuspenseQuery(myClassesQuery(tab === 'published')).data
  if (!isTeacher) return <BecomeTeacher />
  return (
    <div className="mx-auto max-w-5xl px-4 py-8">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h1 className="text-2xl font-black">クラス管理</h1>
        <Link to="/class_management/create" className="btn-primary px-4 py-2" data-testid="create-class">
          クラスを作成
        </Link>
      </div>
      {isVerified ? null : (
        <p
          className="mt-4 rounded-2xl border border-amber-200 bg-amber-50 p-4 text-sm"
          data-testid="not-verified-notice"
        >
          本人確認が完了するまで、クラスは下書き（非公開）として保存できます。公開は本人確認の完了後にできます。{' '}
          <Link to="/profile/teacher" className="font-bold underline">
            本人確認の状況を見る
          </Link>
        </p>
      )}
      <nav aria-label="公開状態" className="mt-6 flex gap-2 border-b border-slate-200">
        {tabs.map((t) => (
          <Link
            key={t.value}
            to="/class_management"
            search={{ tab: t.value }}
            aria-current={t.value === tab ? 'page' : undefined}
            className={`-mb-px border-b-4 px-4 py-2 font-bold ${
              t.value === tab ? 'border-purple-dark text-purple-dark' : 'border-transparent text-slate-700'
            }`}
            data-testid={`tab-${t.value}`}
          >
            {t.label}
          </Link>
        ))}
      </nav>
      {classes.length === 0 ? (
        <p className="mt-8 text-slate-700" data-testid="class-list-empty">
          {tab === 'published' ? '公開中のクラスはありません。' : '非公開のクラスはありません。'}
        </p>
      ) : (
        <ul className="mt-6 grid gap-4" data-testid="class-list">
          {classes.map((c) => (
            <ClassRow key={c.id} item={c} />
          ))}
        </ul>
      )}
    </div>
  )
}

function ClassRow({ item }: { item: MyClassWork }) {
  const next = item.next_schedule
  return (
    <li className="rounded-2xl border border-slate-200 bg-white p-4 sm:flex sm:gap-4" data-testid="class-row">
      {item.image_url ? (
        <img
          src={item.image_url}
          {...fixedSizeSrcSet(item.image_url, 160)}
          alt=""
          width={160}
          height={100}
          className="mb-3 h-24 w-40 shrink-0 rounded-lg bg-light-grey object-cover sm:mb-0"
        />
      ) : null}
      <div className="min-w-0 flex-1">
        <h2 className="font-bold">
          <Link to="/class_management/edit/$id" params={{ id: String(item.id) }} className="hover:underline">
            {item.title}
          </Link>
        </h2>
        <p className="mt-1 text-sm text-slate-700">
          {item.category.name}・{formatPrice(item.price)}・定員{item.capacity}人・{item.duration_minutes}分
        </p>
        <dl className="mt-2 grid grid-cols-3 gap-2 text-center text-sm">
          <div className="rounded-lg bg-base-light p-2">
            <dt className="text-xs text-slate-700">開催回数</dt>
            <dd className="font-bold">{item.summary.times_held}回</dd>
          </div>
          <div className="rounded-lg bg-base-light p-2">
            <dt className="text-xs text-slate-700">受講者数</dt>
            <dd className="font-bold">{item.summary.counts_purchased}人</dd>
          </div>
          <div className="rounded-lg bg-base-light p-2">
            <dt className="text-xs text-slate-700">予約</dt>
            <dd className="font-bold">{item.summary.has_reservation ? '予約あり' : 'なし'}</dd>
          </div>
        </dl>
        <p className="mt-2 text-sm" data-testid="next-schedule">
          次回：
          {next
            ? `${formatRunJa(next.started_at, next.ended_at, item.lesson_count)}（予約 ${next.purchased_count}/${next.capacity}席）`
            : '予定はありません'}
        </p>
      </div>
      <div className="mt-3 flex shrink-0 items-start gap-2 sm:mt-0 sm:flex-col">
        <Link
          to="/class_management/edit/$id"
          params={{ id: String(item.id) }}
          className="btn-outline px-3 py-2 text-sm"
        >
          編集
        </Link>
        {item.is_published ? (
          <Link
            to="/class_search/detail/$id"
            params={{ id: String(item.id) }}
            className="btn-ghost px-3 py-2 text-sm"
          >
            公開ページ
          </Link>
        ) : null}
      </div>
    </li>
  )
}

function BecomeTeacher() {
  return (
    <div className="mx-auto max-w-2xl px-4 py-10" data-testid="become-teacher">
      <h1 className="text-2xl font-black">クラス管理</h1>
      <section className="mt-6 rounded-2xl border border-slate-200 bg-white p-6">
        <h2 className="text-lg font-bold">先生としてクラスを開くには</h2>
        <p className="mt-3 text-slate-700">
          まなびのたねでは、本人確認を済ませた方が先生としてオンラインのクラスを開けます。「先生として活動する」から本人確認を申請すると、
          すぐにクラスの下書きを作れます。審査が完了すると、クラスを公開して売上を確認できるようになります。
        </p>
        <Link
          to="/profile/teacher"
          className="btn-primary mt-6 inline-flex px-4 py-2"
          data-testid="become-teacher-link"
        >
          先生として活動する
        </Link>
      </section>
    </div>
  )
}
