import { createFileRoute } from '@tanstack/react-router'
import { NotificationSettingsPage } from '~/features/notification-settings/notification-settings-page'
import { notificationSettingsQuery } from '~/features/notification-settings/queries'
import { pageHead } from '~/lib/seo'

export const Route = createFileRoute('/_default/_auth/notification_settings')({
  loader: ({ context }) => context.queryClient.ensureQueryData(notificationSettingsQuery()),
  head: ({ match }) => pageHead(match, { title: 'メール通知の設定', noindex: true }),
  component: NotificationSettingsPage,
})
