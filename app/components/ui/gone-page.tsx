import { Link } from '@tanstack/react-router'

/** 410: a page an operator took down (a hidden class, a suspended teacher). It existed and will not return. */
export function GonePage({ message }: { message: string }) {
  return (
    <div className="mx-auto max-w-2xl px-4 py-16 text-center" data-testid="gone-page">
      <p className="text-5xl font-black text-slate-300">410</p>
      <h1 className="mt-4 text-2xl font-black">このページは公開を終了しました</h1>
      <p className="mt-3 text-slate-700">{message}</p>
      <p className="mt-2 text-sm text-slate-600">
        ご予約があった場合はキャンセルされ、お支払いは全額返金されます（メールでお知らせしています）。
      </p>
      <div className="mt-8 flex flex-wrap justify-center gap-3">
        <Link to="/class_search" className="btn-primary px-4 py-2">
          ほかのクラスを探す
        </Link>
        <Link to="/" className="btn-outline px-4 py-2">
          ホームへ
        </Link>
      </div>
    </div>
  )
}
