import { useMutation, useQueryClient, useSuspenseQuery } from '@tanstack/react-query'
import { useState } from 'react'
import { showErrorSnackbar, showSnackbar } from '~/components/shell/ui-store'
import { SubPage } from '~/components/ui/sub-page'
import { type NotificationKind, notificationKind } from '~/lib/notification-kinds'
import { updateNotificationSetting } from './notification-settings.functions'
import { notificationSettingsQuery } from './queries'

/** /notification_settings: which mails reach the member, per kind; refunds always do. */
export function NotificationSettingsPage() {
  const settings = useSuspenseQuery(notificationSettingsQuery()).data
  const queryClient = useQueryClient()
  const change = useMutation({
    mutationFn: (input: { kind: NotificationKind; enabled: boolean }) =>
      updateNotificationSetting({ data: input }),
    onSuccess: (result, input) => {
      if (!result.ok) return showErrorSnackbar(result.message)
      queryClient.setQueryData(notificationSettingsQuery().queryKey, result.data)
      const label = notificationKind(input.kind)?.label ?? ''
      showSnackbar({ message: `「${label}」のメールを${input.enabled ? '受け取ります' : '停止しました'}` })
    },
    onError: () => showErrorSnackbar('設定を保存できませんでした。時間をおいてもう一度お試しください'),
  })
  // The switch moves in the same event, as a checkbox should (the query cache notifies a tick later); a refusal
  // or a failure puts it back.
  const [pending, setPending] = useState<Partial<Record<NotificationKind, boolean>>>({})
  const toggle = (kind: NotificationKind, enabled: boolean) => {
    setPending((p) => ({ ...p, [kind]: enabled }))
    change.mutate(
      { kind, enabled },
      {
        onSettled: () =>
          setPending((p) => {
            const { [kind]: _, ...rest } = p
            return rest
          }),
      },
    )
  }
  return (
    <SubPage
      back={{ to: '/profile', label: '基本情報' }}
      title="メール通知の設定"
      lead="受け取るメールを種類ごとに選べます。返金に関するお知らせは大切なため停止できません。"
    >
      <ul
        className="mt-6 divide-y divide-slate-200 rounded-2xl border border-slate-200 bg-white"
        data-testid="notification-settings"
      >
        {settings.map((s) => {
          const kind = notificationKind(s.kind)
          const id = `notify-${s.kind}`
          return (
            <li
              key={s.kind}
              className="flex items-center justify-between gap-4 p-4"
              data-testid="notification-setting"
            >
              <label htmlFor={id} className="min-w-0">
                <span className="block font-bold">{kind?.label}</span>
                <span className="block text-sm text-slate-600">{kind?.description}</span>
              </label>
              <input
                id={id}
                type="checkbox"
                role="switch"
                className="h-6 w-6 shrink-0 accent-teal-700"
                checked={pending[s.kind] ?? s.enabled}
                aria-checked={pending[s.kind] ?? s.enabled}
                disabled={s.mandatory || change.isPending}
                aria-describedby={s.mandatory ? `${id}-note` : undefined}
                onChange={(e) => toggle(s.kind, e.target.checked)}
              />
              {s.mandatory ? (
                <span id={`${id}-note`} className="sr-only">
                  停止できません
                </span>
              ) : null}
            </li>
          )
        })}
      </ul>
    </SubPage>
  )
}
