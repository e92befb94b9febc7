import { createFileRoute } from '@tanstack/react-router'
import { unsubscribeTargetQuery } from '~/features/notification-settings/queries'
import { UnsubscribePage } from '~/features/notification-settings/unsubscribe-page'
import { pageHead } from '~/lib/seo'

export const Route = createFileRoute('/_default/unsubscribe')({
  validateSearch: (search: Record<string, unknown>): { token: string } => ({
    token: typeof search.token === 'string' ? search.token.slice(0, 200) : '',
  }),
  loaderDeps: ({ search }) => ({ token: search.token }),
  loader: ({ context, deps }) =>
    deps.token ? context.queryClient.ensureQueryData(unsubscribeTargetQuery(deps.token)) : null,
  head: ({ match }) => pageHead(match, { title: 'メールの配信停止', noindex: true }),
  component: function Unsubscribe() {
    const { token } = Route.useSearch()
    return token ? (
      <UnsubscribePage token={token} />
    ) : (
      <div className="mx-auto max-w-xl px-4 py-12">
        <h1 className="text-2xl font-black">メールの配信停止</h1>
        <p className="mt-4" role="alert">
          配信停止のリンクが正しくありません。メールのリンクをもう一度開いてください。
        </p>
      </div>
    )
  },
})
