import { useMutation, useQueryClient, useSuspenseQuery } from '@tanstack/react-query'
import { showErrorSnackbar, showSnackbar } from '~/components/shell/ui-store'
import { formatDateJa, formatTimeJa } from '~/lib/format'
import { moderateMessage } from './admin.functions'
import { AdminPage } from './admin-page'
import { heldMessagesQuery } from './queries'

const when = (iso: string) => `${formatDateJa(iso)} ${formatTimeJa(iso)}`

/**
 * /admin/messages: messages with contact details that their sender sent after the warning. The recipient sees
 * nothing until an operator releases one; a deleted one never reaches them.
 */
export function AdminMessages() {
  const held = useSuspenseQuery(heldMessagesQuery()).data
  const queryClient = useQueryClient()
  const decide = useMutation({
    mutationFn: (input: { id: number; decision: 'release' | 'delete' }) => moderateMessage({ data: input }),
    onSuccess: async (result) => {
      if (!result.ok) {
        if (result.status === 409)
          await queryClient.invalidateQueries({ queryKey: heldMessagesQuery().queryKey })
        return showErrorSnackbar(result.message)
      }
      // Every operator view: the held list, the home page's counts, the audit log.
      await queryClient.invalidateQueries({ queryKey: ['admin'] })
      showSnackbar({ message: result.data.status === 'visible' ? '相手に届けました' : '削除しました' })
    },
    onError: () => showErrorSnackbar('処理できませんでした。時間をおいてもう一度お試しください'),
  })
  return (
    <AdminPage
      title="確認待ちのメッセージ"
      lead="連絡先を含むと判定され、警告のあとも送信されたメッセージです。確認するまで相手には届きません。"
    >
      {held.length === 0 ? (
        <p className="mt-6" data-testid="held-empty">
          確認待ちのメッセージはありません。
        </p>
      ) : (
        <ul className="mt-6 flex flex-col gap-4" data-testid="held-messages">
          {held.map((m) => (
            <li
              key={m.id}
              className="rounded-2xl border border-slate-200 bg-white p-4"
              data-testid="held-message"
            >
              <p className="text-xs text-slate-600">
                <time dateTime={m.created_at}>{when(m.created_at)}</time>・{m.sender.nickname}（ID{' '}
                {m.sender.id}）→ {m.recipient ? `${m.recipient.nickname}（ID ${m.recipient.id}）` : '—'}
              </p>
              <p className="mt-1 text-xs font-bold text-red-dark">{m.found}</p>
              <p className="mt-2 whitespace-pre-line break-words">{m.body}</p>
              <div className="mt-3 flex flex-wrap gap-2">
                <button
                  type="button"
                  className="btn-outline"
                  disabled={decide.isPending}
                  onClick={() => decide.mutate({ id: m.id, decision: 'release' })}
                >
                  問題なし（届ける）
                </button>
                <button
                  type="button"
                  className="btn-primary"
                  disabled={decide.isPending}
                  onClick={() => decide.mutate({ id: m.id, decision: 'delete' })}
                >
                  削除する
                </button>
              </div>
            </li>
          ))}
        </ul>
      )}
    </AdminPage>
  )
}
