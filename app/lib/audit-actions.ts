/** What the audit log records (issue 15), with the label the operator's audit page shows. */
export const AUDIT_ACTION_LABELS = {
  sign_in: 'ログイン',
  sign_in_failed: 'ログイン失敗',
  logout: 'ログアウト',
  logout_others: 'ほかの端末からログアウト',
  role_grant: '運営権限の付与',
  role_revoke: '運営権限の取り消し',
  notice_create: 'お知らせの作成',
  notice_withdraw: 'お知らせの取り下げ',
  message_release: 'メッセージの公開（確認済み）',
  message_delete: 'メッセージの削除',
} as const

export type AuditAction = keyof typeof AUDIT_ACTION_LABELS
export const AUDIT_ACTIONS = Object.keys(AUDIT_ACTION_LABELS) as [AuditAction, ...AuditAction[]]
