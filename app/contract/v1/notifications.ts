import { z } from 'zod'
import { NOTIFICATION_KIND_NAMES } from '../../lib/notification-kinds'

/** GET/PUT /v1/users/notification_settings: the member's choice per kind of mail (issue 14). */
export const NotificationKindName = z.enum(NOTIFICATION_KIND_NAMES)

export const NotificationSetting = z.object({
  kind: NotificationKindName,
  enabled: z.boolean(),
  /** Refunds: always sent, cannot be switched off. */
  mandatory: z.boolean(),
})
export type NotificationSetting = z.infer<typeof NotificationSetting>
export const NotificationSettingList = z.array(NotificationSetting)

export const UpdateNotificationSettingBody = z
  .object({ kind: NotificationKindName, enabled: z.boolean() })
  .strict()
export type UpdateNotificationSettingBody = z.infer<typeof UpdateNotificationSettingBody>

/** /v1/unsubscribe: the one-click link of a mail's footer, authorised by its signed token alone. */
export const UnsubscribeToken = z.object({ token: z.string().min(1).max(200) }).strict()
export const UnsubscribeState = z.object({ kind: NotificationKindName, enabled: z.boolean() })
export type UnsubscribeState = z.infer<typeof UnsubscribeState>
