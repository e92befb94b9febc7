import { useMutation, useSuspenseQuery } from '@tanstack/react-query'
import { Link } from '@tanstack/react-router'
import { notificationKind } from '~/lib/notification-kinds'
import { unsubscribeByToken } from './notification-settings.functions'
import { unsubscribeTargetQuery } from './queries'

/**
 * /unsubscribe?token=…: the link in a mail's footer. It works without signing in; the page asks once (a mail
 * scanner that follows links must not unsubscribe anyone), then stops that kind of mail.
 */
export function UnsubscribePage(props: { token: string }) {
  const target = useSuspenseQuery(unsubscribeTargetQuery(props.token)).data
  const stop = useMutation({ mutationFn: () => unsubscribeByToken({ data: { token: props.token } }) })
  const label = target ? notificationKind(target.kind)?.label : undefined
  return (
    <div className="mx-auto max-w-xl px-4 py-12" data-testid="unsubscribe-page">
      <h1 className="text-2xl font-black">メールの配信停止</h1>
      {!target ? (
        <p className="mt-4" role="alert">
          配信停止のリンクが正しくありません。メールのリンクをもう一度開くか、ログインして通知の設定を変更してください。
        </p>
      ) : stop.data?.ok || (!target.enabled && !stop.isPending && !stop.data) ? (
        <p className="mt-4" role="status">
          「{label}」のメールを停止しました。
        </p>
      ) : (
        <>
          <p className="mt-4">「{label}」のメールを停止します。よろしいですか？</p>
          {stop.data && !stop.data.ok ? (
            <p className="mt-2 text-red-700" role="alert">
              {stop.data.message}
            </p>
          ) : null}
          {stop.isError ? (
            <p className="mt-2 text-red-700" role="alert">
              停止できませんでした。時間をおいてもう一度お試しください。
            </p>
          ) : null}
          <button
            type="button"
            className="btn-primary mt-6"
            disabled={stop.isPending}
            onClick={() => stop.mutate()}
          >
            配信を停止する
          </button>
        </>
      )}
      <p className="mt-8 text-sm">
        ほかの種類のメールは
        <Link to="/notification_settings" className="underline">
          通知の設定
        </Link>
        で選べます（ログインが必要です）。
      </p>
    </div>
  )
}
