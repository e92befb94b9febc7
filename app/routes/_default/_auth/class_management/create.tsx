import { createFileRoute, Link } from '@tanstack/react-router'
import { ClassForm } from '~/features/class-management/class-form'
import { classFormOptionsQuery } from '~/features/class-management/queries'
import { pageHead } from '~/lib/seo'

export const Route = createFileRoute('/_default/_auth/class_management/create')({
  loader: ({ context }) => context.queryClient.ensureQueryData(classFormOptionsQuery()),
  head: ({ match }) => pageHead(match, { title: 'クラスを作成', noindex: true }),
  component: () => (
    <div className="mx-auto max-w-3xl px-4 py-8">
      <p className="text-sm">
        <Link to="/class_management" search={{ tab: 'published' }} className="underline">
          クラス管理
        </Link>
      </p>
      <h1 className="mt-2 text-2xl font-black">クラスを作成</h1>
      <p className="mt-1 text-sm text-slate-700">作成したあと、編集画面でスケジュールを追加できます。</p>
      <div className="mt-6">
        <ClassForm />
      </div>
    </div>
  ),
})
