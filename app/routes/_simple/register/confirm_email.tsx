import { createFileRoute } from '@tanstack/react-router'
import { LOGOUT_HREF, loginHref } from '~/lib/auth-links'
import { pageHead } from '~/lib/seo'

export const Route = createFileRoute('/_simple/register/confirm_email')({
  head: ({ match }) => pageHead(match, { title: 'プロフィール登録（メールアドレスの確認）', noindex: true }),
  component: ConfirmEmailPage,
})

function ConfirmEmailPage() {
  const { auth } = Route.useRouteContext()
  const email = auth.status === 'authenticated' ? auth.identity.email : undefined
  return (
    <>
      <h1 className="text-2xl font-black">メールアドレスの確認</h1>
      <p className="mt-4 text-slate-700">
        プロフィールを登録する前に、メールアドレスの確認が必要です。
        {email ? (
          <>
            <strong className="mx-1 break-all">{email}</strong>あてに
          </>
        ) : null}
        お送りした確認メールのリンクを開いてください。
      </p>
      <ol className="mt-6 list-decimal space-y-2 pl-6 text-sm text-slate-700">
        <li>確認メールの「メールアドレスを確認する」リンクを開きます。</li>
        <li>このページに戻り、「確認しました」を押します。</li>
        <li>確認できたら、プロフィール登録に進みます。</li>
      </ol>
      <p className="mt-4 text-sm text-slate-600">
        メールが届かない場合は、迷惑メールフォルダもご確認ください。
      </p>
      <div className="mt-8 flex flex-col gap-3 sm:flex-row">
        {/* Checking again signs in once more, which reads the fresh e-mail verification from the provider. */}
        <a href={loginHref('/')} className="btn-primary" data-testid="confirm-email-check">
          確認しました
        </a>
        {/* Signs out at once (a POST, CSRF-checked like the menu's), then the top page offers the login. */}
        <form method="post" action={LOGOUT_HREF} className="contents">
          <button type="submit" className="btn-ghost" data-testid="confirm-email-other-account">
            別のアカウントでログインする
          </button>
        </form>
      </div>
    </>
  )
}
