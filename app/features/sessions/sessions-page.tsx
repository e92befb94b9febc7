import { useMutation, useQueryClient, useSuspenseQuery } from '@tanstack/react-query'
import { showErrorSnackbar, showSnackbar } from '~/components/shell/ui-store'
import { SubPage } from '~/components/ui/sub-page'
import { formatDateJa, formatTimeJa } from '~/lib/format'
import { sessionsQuery } from './queries'
import { endOtherSessions, endSession } from './sessions.functions'

const when = (iso: string) => `${formatDateJa(iso)} ${formatTimeJa(iso)}`

/** /profile/sessions: where the member is signed in, and a way to end the others. */
export function SessionsPage() {
  const sessions = useSuspenseQuery(sessionsQuery()).data
  const queryClient = useQueryClient()
  const refresh = () => queryClient.invalidateQueries({ queryKey: sessionsQuery().queryKey })
  const others = useMutation({
    mutationFn: () => endOtherSessions(),
    onSuccess: async (result) => {
      await refresh()
      showSnackbar({ message: `${result.deleted}台の端末からログアウトしました` })
    },
    onError: (e) => showErrorSnackbar(`ログアウトできませんでした ${(e as Error).message ?? ''}`),
  })
  const one = useMutation({
    mutationFn: (id: string) => endSession({ data: { id } }),
    onSuccess: async (result) => {
      await refresh()
      if (!result.ok) return showErrorSnackbar(result.message)
      showSnackbar({ message: 'ログアウトしました' })
    },
    onError: (e) => showErrorSnackbar(`ログアウトできませんでした ${(e as Error).message ?? ''}`),
  })
  const hasOthers = sessions.some((s) => !s.current)
  return (
    <SubPage
      back={{ to: '/profile', label: '基本情報' }}
      title="ログイン中の端末"
      lead="心当たりのない端末があれば、ログアウトしてからパスワードを変更してください。"
    >
      <ul
        className="mt-6 divide-y divide-slate-200 rounded-2xl border border-slate-200 bg-white"
        data-testid="session-list"
      >
        {sessions.map((s) => (
          <li
            key={s.id}
            className="flex flex-wrap items-center justify-between gap-3 p-4"
            data-testid="session-item"
          >
            <div>
              <p className="font-bold">
                {s.device}
                {s.current ? (
                  <span className="ml-2 rounded-full bg-base/20 px-2 py-0.5 text-xs font-bold">この端末</span>
                ) : null}
              </p>
              <p className="mt-1 text-xs text-slate-600">
                最終利用 {when(s.last_seen_at)}・ログイン {when(s.created_at)}
              </p>
            </div>
            {s.current ? null : (
              <button
                type="button"
                className="btn-outline"
                disabled={one.isPending}
                onClick={() => one.mutate(s.id)}
              >
                ログアウト
              </button>
            )}
          </li>
        ))}
      </ul>
      <button
        type="button"
        className="btn-primary mt-6"
        disabled={!hasOthers || others.isPending}
        onClick={() => others.mutate()}
        data-testid="logout-others"
      >
        この端末以外からログアウト
      </button>
    </SubPage>
  )
}
