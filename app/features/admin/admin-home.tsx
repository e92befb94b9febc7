import { Link } from '@tanstack/react-router'

/** /admin (運営管理): what operators can do here. */
export function AdminHome() {
  return (
    <div className="mx-auto max-w-3xl px-4 py-10">
      <h1 className="text-2xl font-black">運営管理</h1>
      <p className="mt-2 text-sm text-slate-700">
        運営スタッフだけが使える画面です。操作はすべて監査ログに記録されます。
      </p>
      <ul className="mt-6 grid gap-3 sm:grid-cols-2">
        <li>
          <Link
            to="/admin/verifications"
            search={{}}
            className="block rounded-2xl border border-slate-200 bg-white p-5 hover:bg-light-grey"
          >
            <span className="block font-bold">本人確認</span>
            <span className="mt-1 block text-sm text-slate-600">先生の本人確認の審査</span>
          </Link>
        </li>
        <li>
          <Link
            to="/admin/reports"
            search={{}}
            className="block rounded-2xl border border-slate-200 bg-white p-5 hover:bg-light-grey"
          >
            <span className="block font-bold">通報</span>
            <span className="mt-1 block text-sm text-slate-600">対応不要・非表示・アカウントの利用停止</span>
          </Link>
        </li>
        <li>
          <Link
            to="/admin/suspensions"
            className="block rounded-2xl border border-slate-200 bg-white p-5 hover:bg-light-grey"
          >
            <span className="block font-bold">利用停止中のアカウント</span>
            <span className="mt-1 block text-sm text-slate-600">利用停止の確認・解除</span>
          </Link>
        </li>
        <li>
          <Link
            to="/admin/notices"
            className="block rounded-2xl border border-slate-200 bg-white p-5 hover:bg-light-grey"
          >
            <span className="block font-bold">お知らせ</span>
            <span className="mt-1 block text-sm text-slate-600">作成・予約投稿・取り下げ</span>
          </Link>
        </li>
        <li>
          <Link
            to="/admin/messages"
            className="block rounded-2xl border border-slate-200 bg-white p-5 hover:bg-light-grey"
          >
            <span className="block font-bold">確認待ちのメッセージ</span>
            <span className="mt-1 block text-sm text-slate-600">連絡先を含むメッセージの確認</span>
          </Link>
        </li>
        <li>
          <Link
            to="/admin/audit"
            search={{}}
            className="block rounded-2xl border border-slate-200 bg-white p-5 hover:bg-light-grey"
          >
            <span className="block font-bold">監査ログ</span>
            <span className="mt-1 block text-sm text-slate-600">運営の操作とログインなどの記録</span>
          </Link>
        </li>
      </ul>
    </div>
  )
}
