import { createFileRoute, Link } from '@tanstack/react-router'
import { pageHead } from '~/lib/seo'

export const Route = createFileRoute('/_simple/register/thanks')({
  head: ({ match }) => pageHead(match, { title: 'プロフィール登録完了', noindex: true }),
  component: ThanksPage,
})

function ThanksPage() {
  return (
    <div className="text-center">
      <p className="text-sm font-bold text-purple-dark">STEP 2 / 2</p>
      <h1 className="mt-1 text-2xl font-black">登録が完了しました</h1>
      <p className="mt-4 text-slate-700">
        ようこそ、まなびのたねへ。気になるクラスを見つけて、はじめての「たね」をまいてみましょう。
      </p>
      <div className="mt-8 flex flex-col justify-center gap-3 sm:flex-row">
        <Link to="/" className="btn-primary">
          トップページへ
        </Link>
        <Link to="/profile" className="btn-outline">
          登録内容を確認する
        </Link>
      </div>
    </div>
  )
}
